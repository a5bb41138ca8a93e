/*
 * powerfs: a FUSE passthrough filesystem that forgets what was never made durable, the way a
 * power cut does (LazyFS's technique, written for this project's power-loss suite).
 *
 *   powerfs --control SOCKET [--delay MS] [--capacity BYTES] BACKING MOUNTPOINT [-f] [fuse options]
 *
 * The mount shows BACKING. What reaches BACKING is what a disk would hold after the power went:
 *
 * - File data: a write lands in this process's own cache, one 4 KiB page at a time, and reads are
 *   served from the cache over BACKING, so the writer sees its own writes at once. fsync or
 *   fdatasync of any descriptor of the file (or a write through an O_SYNC/O_DSYNC descriptor)
 *   writes the file's cached pages and size to BACKING and fsyncs it. A size change (truncate,
 *   a write past the end, fallocate) is file data too: BACKING keeps the old size until fsync.
 * - Directory changes (create, mknod, symlink, mkdir, unlink, rmdir, rename) are made in BACKING at
 *   once, and journaled in order: fsync of a directory (for a rename, of either directory) makes
 *   that directory's changes durable and, as the ordered metadata journal of ext4 or XFS does, every
 *   change made before them; fsync of a file makes no directory change durable. A removed or overwritten entry is moved into a hidden
 *   graveyard (BACKING/.powerfs-graveyard), so undoing the removal can bring back the very inode
 *   with its durable contents; a durable removal deletes it from the graveyard.
 * - chmod, chown and utimens go to BACKING at once (taken as durable). Hard links are refused.
 *
 * The control socket takes one command a line and answers lines ending with "ok ..." or
 * "error: ...":
 *   ping                 is the filesystem up
 *   status               what is not durable: "file PATH pages N size S durable-size D" per file,
 *                        "dir KIND TEXT" per directory change, then "ok F files, P pages, C dir changes"
 *   cut                  power cut: every un-fsynced page and size change dropped, every un-synced
 *                        directory change undone (newest first)
 *   torn SEED            power cut after a partial write-back: a seeded random half (on average) of
 *                        the un-fsynced pages and of the size changes reach BACKING, and a seeded
 *                        random prefix of the un-synced directory changes (an ordered journal keeps a
 *                        prefix); the rest as "cut"
 *   sync                 everything made durable (sync(2))
 *   delay MS             every fsync/fdatasync/fsyncdir sleeps MS first (a slow disk); 0: none
 *   capacity BYTES       writes that would take the files' total size past BYTES fail with ENOSPC
 *                        (statfs reports it too); 0: no limit
 * Unmounting is a power cut too ("sync" first for a clean shutdown). The kernel's page cache of the
 * mount still holds what the processes wrote: after a cut, unmount and mount again ("reboot") before
 * anything reads the files.
 */
#define FUSE_USE_VERSION 31
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fuse.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#define PAGE 4096
#define GRAVEYARD ".powerfs-graveyard"

static int root_fd;              /* BACKING */
static int grave_fd;             /* BACKING/.powerfs-graveyard */
static const char *control_path;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static volatile long delay_ms;
static long long capacity;       /* 0: none */
static long long used;           /* the files' total size, kept while capacity > 0 */
static unsigned long grave_seq;

/* ---- one file's un-fsynced state, keyed by the backing inode ---- */

struct page {
    off_t index;
    struct page *next;
    char data[PAGE];
};

struct node {
    ino_t ino;
    int fd;               /* a descriptor of the backing file, kept while the node lives */
    int open_count;       /* handles of the mount on it */
    off_t size;           /* the size the processes see */
    off_t durable_low;    /* backing bytes at and past this offset read as zeros (a pending shrink) */
    int size_dirty;
    struct page **buckets;
    size_t nbuckets, npages;
    char *path;           /* last known path, for reports */
    struct node *next;
};

static struct node *nodes;

static struct handle {
    int fd;
    int sync_writes;
    struct node *node;
} *new_handle(int fd, int flags, struct node *n) {
    struct handle *h = calloc(1, sizeof *h);
    h->fd = fd;
    h->sync_writes = (flags & (O_SYNC | O_DSYNC)) != 0;
    h->node = n;
    return h;
}

static const char *rel(const char *path) {
    if (!path) return ".";
    while (*path == '/') path++;
    return *path ? path : ".";
}

static int hidden(const char *path) {
    if (!path) return 0;
    const char *r = rel(path);
    size_t n = strlen(GRAVEYARD);
    return strncmp(r, GRAVEYARD, n) == 0 && (r[n] == 0 || r[n] == '/');
}

static struct node *find_node(ino_t ino) {
    for (struct node *n = nodes; n; n = n->next)
        if (n->ino == ino) return n;
    return NULL;
}

static void set_path(struct node *n, const char *path) {
    free(n->path);
    n->path = strdup(path);
}

/* The node of the backing file open as fd (a dup is kept), made on first use. */
static struct node *node_for_fd(int fd, const char *path) {
    struct stat st;
    if (fstat(fd, &st) != 0) return NULL;
    struct node *n = find_node(st.st_ino);
    if (!n) {
        n = calloc(1, sizeof *n);
        n->ino = st.st_ino;
        n->fd = fcntl(fd, F_DUPFD_CLOEXEC, 0);
        n->size = st.st_size;
        n->durable_low = st.st_size;
        n->nbuckets = 64;
        n->buckets = calloc(n->nbuckets, sizeof *n->buckets);
        n->next = nodes;
        nodes = n;
    }
    if (path) set_path(n, path);
    return n;
}

static struct page *find_page(struct node *n, off_t index) {
    for (struct page *p = n->buckets[index % n->nbuckets]; p; p = p->next)
        if (p->index == index) return p;
    return NULL;
}

static void grow_buckets(struct node *n) {
    size_t nb = n->nbuckets * 4;
    struct page **b = calloc(nb, sizeof *b);
    for (size_t i = 0; i < n->nbuckets; i++) {
        for (struct page *p = n->buckets[i], *next; p; p = next) {
            next = p->next;
            p->next = b[p->index % nb];
            b[p->index % nb] = p;
        }
    }
    free(n->buckets);
    n->buckets = b;
    n->nbuckets = nb;
}

/* Reads backing bytes [off, off+len) as the node's durable image: zeros past durable_low. */
static int read_backing(struct node *n, char *buf, size_t len, off_t off) {
    memset(buf, 0, len);
    if (off >= n->durable_low) return 0;
    size_t want = (size_t)((off + (off_t)len > n->durable_low) ? n->durable_low - off : (off_t)len);
    size_t got = 0;
    while (got < want) {
        ssize_t r = pread(n->fd, buf + got, want - got, off + (off_t)got);
        if (r < 0) return -errno;
        if (r == 0) break;
        got += (size_t)r;
    }
    return 0;
}

static struct page *page_for_write(struct node *n, off_t index, int *err) {
    struct page *p = find_page(n, index);
    if (p) return p;
    p = malloc(sizeof *p);
    p->index = index;
    *err = read_backing(n, p->data, PAGE, index * PAGE);
    if (*err) {
        free(p);
        return NULL;
    }
    if (n->npages >= n->nbuckets) grow_buckets(n);
    p->next = n->buckets[index % n->nbuckets];
    n->buckets[index % n->nbuckets] = p;
    n->npages++;
    return p;
}

static void drop_pages(struct node *n, off_t from_index) {
    for (size_t i = 0; i < n->nbuckets; i++) {
        struct page **pp = &n->buckets[i];
        while (*pp) {
            if ((*pp)->index >= from_index) {
                struct page *dead = *pp;
                *pp = dead->next;
                free(dead);
                n->npages--;
            } else {
                pp = &(*pp)->next;
            }
        }
    }
}

static int dirty(struct node *n) {
    return n->npages > 0 || n->size_dirty;
}

static void free_node(struct node *n) {
    drop_pages(n, 0);
    free(n->buckets);
    free(n->path);
    if (n->fd >= 0) close(n->fd);
    for (struct node **pp = &nodes; *pp; pp = &(*pp)->next) {
        if (*pp == n) {
            *pp = n->next;
            break;
        }
    }
    free(n);
}

static void release_if_idle(struct node *n) {
    if (n->open_count == 0 && !dirty(n)) free_node(n);
}

static int pwrite_all(int fd, const char *buf, size_t len, off_t off) {
    while (len > 0) {
        ssize_t w = pwrite(fd, buf, len, off);
        if (w < 0) return -errno;
        buf += w;
        len -= (size_t)w;
        off += w;
    }
    return 0;
}

/* Writes one cached page to the backing file, no further than the size. */
static int write_page(struct node *n, struct page *p) {
    off_t off = p->index * PAGE;
    if (off >= n->size) return 0;
    size_t len = (size_t)(n->size - off < PAGE ? n->size - off : PAGE);
    return pwrite_all(n->fd, p->data, len, off);
}

static int write_size(struct node *n) {
    if (ftruncate(n->fd, n->durable_low) != 0 || ftruncate(n->fd, n->size) != 0) return -errno;
    n->durable_low = n->size;
    n->size_dirty = 0;
    return 0;
}

/* fsync: the size and every cached page reach the backing file, which is fsynced. */
static int persist(struct node *n) {
    int err = 0;
    if (n->size_dirty || n->durable_low < n->size) err = write_size(n);
    for (size_t i = 0; i < n->nbuckets && !err; i++)
        for (struct page *p = n->buckets[i]; p && !err; p = p->next) err = write_page(n, p);
    if (err) return err;
    drop_pages(n, 0);
    n->size_dirty = 0;
    n->durable_low = n->size;
    return fsync(n->fd) == 0 ? 0 : -errno;
}

/* ---- the journal of directory changes not yet durable ---- */

enum jkind { J_CREATE, J_MKDIR, J_UNLINK, J_RMDIR, J_RENAME };
static const char *jnames[] = {"create", "mkdir", "unlink", "rmdir", "rename"};

struct jent {
    enum jkind kind;
    int dfd1, dfd2;        /* the directories, held open: their paths may change */
    ino_t dino1, dino2;
    char *name1, *name2;   /* rename: name1 -> name2 */
    char *path1, *path2;   /* for reports */
    ino_t ino;             /* the inode created, removed or moved */
    char grave[32];        /* the removed or overwritten entry's name in the graveyard, or "" */
    struct jent *prev, *next;
};

static struct jent *jhead, *jtail;
static size_t jcount;

static int open_dir_of(const char *path, ino_t *dino) {
    char *copy = strdup(rel(path));
    char *slash = strrchr(copy, '/');
    const char *dir = ".";
    if (slash) {
        *slash = 0;
        dir = copy;
    }
    int fd = openat(root_fd, dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    free(copy);
    struct stat st;
    if (fd >= 0 && fstat(fd, &st) == 0) *dino = st.st_ino;
    return fd;
}

static const char *base(const char *path) {
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

static struct jent *journal(enum jkind kind, const char *path1, const char *path2) {
    struct jent *j = calloc(1, sizeof *j);
    j->kind = kind;
    j->dfd1 = open_dir_of(path1, &j->dino1);
    j->name1 = strdup(base(path1));
    j->path1 = strdup(path1);
    j->dfd2 = -1;
    if (path2) {
        j->dfd2 = open_dir_of(path2, &j->dino2);
        j->name2 = strdup(base(path2));
        j->path2 = strdup(path2);
    }
    j->prev = jtail;
    if (jtail) jtail->next = j; else jhead = j;
    jtail = j;
    jcount++;
    return j;
}

static void unlink_journal(struct jent *j) {
    if (j->prev) j->prev->next = j->next; else jhead = j->next;
    if (j->next) j->next->prev = j->prev; else jtail = j->prev;
    jcount--;
    if (j->dfd1 >= 0) close(j->dfd1);
    if (j->dfd2 >= 0) close(j->dfd2);
    free(j->name1);
    free(j->name2);
    free(j->path1);
    free(j->path2);
    free(j);
}

/* Removes a graveyard entry for good (a file, or a directory that was empty when removed). */
static void bury(const char *grave) {
    if (!grave[0]) return;
    if (unlinkat(grave_fd, grave, 0) != 0) unlinkat(grave_fd, grave, AT_REMOVEDIR);
}

static void commit(struct jent *j) {
    bury(j->grave);
    unlink_journal(j);
}

static ino_t ino_at(int dfd, const char *name) {
    struct stat st;
    return fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 ? st.st_ino : 0;
}

/* Undoes one change in BACKING; a change that later durable state depends on stays. */
static void undo(struct jent *j) {
    switch (j->kind) {
    case J_CREATE:
    case J_MKDIR:
        if (ino_at(j->dfd1, j->name1) == j->ino)
            unlinkat(j->dfd1, j->name1, j->kind == J_MKDIR ? AT_REMOVEDIR : 0);
        break;
    case J_UNLINK:
    case J_RMDIR:
        renameat2(grave_fd, j->grave, j->dfd1, j->name1, RENAME_NOREPLACE);
        break;
    case J_RENAME:
        if (ino_at(j->dfd2, j->name2) == j->ino)
            renameat2(j->dfd2, j->name2, j->dfd1, j->name1, RENAME_NOREPLACE);
        if (j->grave[0]) renameat2(grave_fd, j->grave, j->dfd2, j->name2, RENAME_NOREPLACE);
        break;
    }
    j->grave[0] = 0; /* what could not come back is emptied with the graveyard */
    unlink_journal(j);
}

/* Moves dfd/name into the graveyard, keeping the inode for an undo. */
static int entomb(int dfd, const char *name, char *grave) {
    snprintf(grave, 32, "%lu", ++grave_seq);
    return renameat(dfd, name, grave_fd, grave) == 0 ? 0 : -errno;
}

static void empty_dir(int dfd) {
    DIR *d = fdopendir(dup(dfd));
    if (!d) return;
    rewinddir(d);
    struct dirent *e;
    while ((e = readdir(d))) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
        if (unlinkat(dfd, e->d_name, 0) != 0) {
            int sub = openat(dfd, e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
            if (sub >= 0) {
                empty_dir(sub);
                close(sub);
            }
            unlinkat(dfd, e->d_name, AT_REMOVEDIR);
        }
    }
    closedir(d);
}

/* ---- capacity ---- */

static long long walk_size(int dfd) {
    long long total = 0;
    DIR *d = fdopendir(dup(dfd));
    if (!d) return 0;
    rewinddir(d);
    struct dirent *e;
    while ((e = readdir(d))) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
        if (dfd == root_fd && !strcmp(e->d_name, GRAVEYARD)) continue;
        struct stat st;
        if (fstatat(dfd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0) continue;
        if (S_ISDIR(st.st_mode)) {
            int sub = openat(dfd, e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
            if (sub >= 0) {
                total += walk_size(sub);
                close(sub);
            }
        } else if (S_ISREG(st.st_mode)) {
            struct node *n = find_node(st.st_ino);
            total += n ? n->size : st.st_size;
        }
    }
    closedir(d);
    return total;
}

static void recount(void) {
    if (capacity > 0) used = walk_size(root_fd);
}

/* Whether a file may grow from old_size to new_size; counts the growth when it may. */
static int room_for(off_t old_size, off_t new_size) {
    if (capacity <= 0 || new_size <= old_size) return 1;
    if (used + (new_size - old_size) > capacity) return 0;
    used += new_size - old_size;
    return 1;
}

/* Sets the size the processes see; a growth was counted by room_for. */
static void resize(struct node *n, off_t size) {
    if (capacity > 0 && size < n->size) used -= n->size - size;
    if (size < n->size) {
        /* the page holding the new end keeps its head; the rest of the file reads as zeros */
        off_t keep = (size + PAGE - 1) / PAGE;
        drop_pages(n, keep);
        if (size % PAGE) {
            int err = 0;
            struct page *p = page_for_write(n, size / PAGE, &err);
            if (p) memset(p->data + size % PAGE, 0, PAGE - size % PAGE);
        }
        if (size < n->durable_low) n->durable_low = size;
    }
    n->size = size;
    n->size_dirty = 1;
}

/* ---- power cuts ---- */

static struct { size_t pages, files, dirops, kept_pages, kept_dirops; } tally;

static void forget_all(void) {
    for (struct node *n = nodes, *next; n; n = next) {
        next = n->next;
        tally.pages += n->npages;
        if (dirty(n)) tally.files++;
        drop_pages(n, 0);
        n->size_dirty = 0;
        struct stat st;
        if (fstat(n->fd, &st) == 0) n->size = n->durable_low = st.st_size;
        release_if_idle(n);
    }
    while (jtail) {
        tally.dirops++;
        undo(jtail);
    }
    empty_dir(grave_fd);
    recount();
}

static void cut(void) {
    memset(&tally, 0, sizeof tally);
    forget_all();
}

static void torn(unsigned int seed) {
    memset(&tally, 0, sizeof tally);
    struct drand48_data rnd;
    srand48_r(seed, &rnd);
    long r;
    for (struct node *n = nodes; n; n = n->next) {
        lrand48_r(&rnd, &r);
        if (n->size_dirty && (r & 1)) write_size(n);
        for (size_t i = 0; i < n->nbuckets; i++) {
            for (struct page *p = n->buckets[i]; p; p = p->next) {
                lrand48_r(&rnd, &r);
                if (r & 1) {
                    write_page(n, p);
                    tally.kept_pages++;
                }
            }
        }
    }
    lrand48_r(&rnd, &r);
    size_t keep = jcount ? (size_t)r % (jcount + 1) : 0;
    for (size_t i = 0; i < keep; i++) commit(jhead);
    tally.kept_dirops = keep;
    forget_all();
}

static void sync_all(void) {
    for (struct node *n = nodes, *next; n; n = next) {
        next = n->next;
        persist(n);
        release_if_idle(n);
    }
    while (jhead) commit(jhead);
    recount();
}

static void slow_disk(void) {
    long ms = delay_ms;
    if (ms > 0) {
        struct timespec t = {ms / 1000, (ms % 1000) * 1000000L};
        while (nanosleep(&t, &t) != 0 && errno == EINTR) {
        }
    }
}

/* ---- FUSE operations ---- */

static void *pf_init(struct fuse_conn_info *conn, struct fuse_config *cfg);

static int pf_getattr(const char *path, struct stat *st, struct fuse_file_info *fi) {
    if (hidden(path)) return -ENOENT;
    int r = fi ? fstat(((struct handle *)fi->fh)->fd, st) : fstatat(root_fd, rel(path), st, AT_SYMLINK_NOFOLLOW);
    if (r != 0) return -errno;
    pthread_mutex_lock(&lock);
    struct node *n = S_ISREG(st->st_mode) ? find_node(st->st_ino) : NULL;
    if (n) {
        st->st_size = n->size;
        st->st_blocks = (n->size + 511) / 512;
    }
    pthread_mutex_unlock(&lock);
    return 0;
}

static int pf_access(const char *path, int mask) {
    if (hidden(path)) return -ENOENT;
    return faccessat(root_fd, rel(path), mask, 0) == 0 ? 0 : -errno;
}

static int pf_readlink(const char *path, char *buf, size_t size) {
    ssize_t n = readlinkat(root_fd, rel(path), buf, size - 1);
    if (n < 0) return -errno;
    buf[n] = 0;
    return 0;
}

static int pf_opendir(const char *path, struct fuse_file_info *fi) {
    if (hidden(path)) return -ENOENT;
    int fd = openat(root_fd, rel(path), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) return -errno;
    DIR *d = fdopendir(fd);
    if (!d) {
        close(fd);
        return -errno;
    }
    fi->fh = (uint64_t)(uintptr_t)d;
    return 0;
}

static int pf_readdir(const char *path, void *buf, fuse_fill_dir_t fill, off_t off, struct fuse_file_info *fi,
                      enum fuse_readdir_flags flags) {
    (void)off;
    (void)flags;
    DIR *d = (DIR *)(uintptr_t)fi->fh;
    int root = !strcmp(rel(path), ".");
    rewinddir(d);
    struct dirent *e;
    while ((e = readdir(d))) {
        if (root && !strcmp(e->d_name, GRAVEYARD)) continue;
        struct stat st = {.st_ino = e->d_ino, .st_mode = (mode_t)e->d_type << 12};
        if (fill(buf, e->d_name, &st, 0, 0)) break;
    }
    return 0;
}

static int pf_releasedir(const char *path, struct fuse_file_info *fi) {
    (void)path;
    closedir((DIR *)(uintptr_t)fi->fh);
    return 0;
}

static int pf_fsyncdir(const char *path, int datasync, struct fuse_file_info *fi) {
    (void)path;
    (void)datasync;
    slow_disk();
    struct stat st;
    if (fstat(dirfd((DIR *)(uintptr_t)fi->fh), &st) != 0) return -errno;
    pthread_mutex_lock(&lock);
    /* an ordered journal: the directory's last change and every change before it become durable */
    struct jent *last = NULL;
    for (struct jent *j = jhead; j; j = j->next)
        if (j->dino1 == st.st_ino || (j->dfd2 >= 0 && j->dino2 == st.st_ino)) last = j;
    while (last && jhead != last) commit(jhead);
    if (last) commit(last);
    pthread_mutex_unlock(&lock);
    return 0;
}

static int created(enum jkind kind, const char *path) {
    struct jent *j = journal(kind, path, NULL);
    j->ino = ino_at(j->dfd1, j->name1);
    return 0;
}

static int pf_mkdir(const char *path, mode_t mode) {
    if (hidden(path)) return -EACCES;
    pthread_mutex_lock(&lock);
    int r = mkdirat(root_fd, rel(path), mode) == 0 ? created(J_MKDIR, path) : -errno;
    pthread_mutex_unlock(&lock);
    return r;
}

static int pf_mknod(const char *path, mode_t mode, dev_t dev) {
    if (hidden(path)) return -EACCES;
    pthread_mutex_lock(&lock);
    int r = mknodat(root_fd, rel(path), mode, dev) == 0 ? created(J_CREATE, path) : -errno;
    pthread_mutex_unlock(&lock);
    return r;
}

static int pf_symlink(const char *target, const char *path) {
    if (hidden(path)) return -EACCES;
    pthread_mutex_lock(&lock);
    int r = symlinkat(target, root_fd, rel(path)) == 0 ? created(J_CREATE, path) : -errno;
    pthread_mutex_unlock(&lock);
    return r;
}

static int is_empty_dir(const char *path) {
    int fd = openat(root_fd, rel(path), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
    if (!d) {
        if (fd >= 0) close(fd);
        return 0;
    }
    int empty = 1;
    struct dirent *e;
    while (empty && (e = readdir(d)))
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) empty = 0;
    closedir(d);
    return empty;
}

static int removed(enum jkind kind, const char *path) {
    if (hidden(path)) return -ENOENT;
    pthread_mutex_lock(&lock);
    struct stat st;
    int r = 0;
    if (fstatat(root_fd, rel(path), &st, AT_SYMLINK_NOFOLLOW) != 0) r = -errno;
    else if (kind == J_RMDIR && !S_ISDIR(st.st_mode)) r = -ENOTDIR;
    else if (kind == J_UNLINK && S_ISDIR(st.st_mode)) r = -EISDIR;
    if (r == 0 && kind == J_RMDIR && !is_empty_dir(path)) r = -ENOTEMPTY;
    if (r == 0) {
        struct jent *j = journal(kind, path, NULL);
        j->ino = st.st_ino;
        r = entomb(j->dfd1, j->name1, j->grave);
        if (r != 0) unlink_journal(j);
        else recount();
    }
    pthread_mutex_unlock(&lock);
    return r;
}

static int pf_unlink(const char *path) {
    return removed(J_UNLINK, path);
}

static int pf_rmdir(const char *path) {
    return removed(J_RMDIR, path);
}

static int pf_rename(const char *from, const char *to, unsigned int flags) {
    if (hidden(from) || hidden(to)) return -EACCES;
    if (flags & ~RENAME_NOREPLACE) return -EINVAL;
    pthread_mutex_lock(&lock);
    struct stat src, dst;
    int r = 0;
    if (fstatat(root_fd, rel(from), &src, AT_SYMLINK_NOFOLLOW) != 0) r = -errno;
    int exists = r == 0 && fstatat(root_fd, rel(to), &dst, AT_SYMLINK_NOFOLLOW) == 0;
    if (r == 0 && exists && (flags & RENAME_NOREPLACE)) r = -EEXIST;
    if (r == 0 && exists && dst.st_ino == src.st_ino) {
        pthread_mutex_unlock(&lock);
        return 0;
    }
    if (r == 0 && exists) {
        /* rename's own checks first: the overwritten entry goes to the graveyard, not away */
        if (S_ISDIR(src.st_mode) != S_ISDIR(dst.st_mode)) r = S_ISDIR(dst.st_mode) ? -EISDIR : -ENOTDIR;
        else if (S_ISDIR(dst.st_mode) && !is_empty_dir(to)) r = -ENOTEMPTY;
    }
    if (r == 0) {
        struct jent *j = journal(J_RENAME, from, to);
        j->ino = src.st_ino;
        if (exists) r = entomb(j->dfd2, j->name2, j->grave);
        if (r == 0 && renameat(j->dfd1, j->name1, j->dfd2, j->name2) != 0) {
            r = -errno;
            if (j->grave[0]) renameat(grave_fd, j->grave, j->dfd2, j->name2);
        }
        if (r != 0) {
            unlink_journal(j);
        } else {
            size_t len = strlen(from);
            for (struct node *n = nodes; n; n = n->next) {
                if (n->path && !strncmp(n->path, from, len) && (n->path[len] == 0 || n->path[len] == '/')) {
                    char *p;
                    if (asprintf(&p, "%s%s", to, n->path + len) >= 0) {
                        free(n->path);
                        n->path = p;
                    }
                }
            }
            if (exists) recount();
        }
    }
    pthread_mutex_unlock(&lock);
    return r;
}

static int pf_link(const char *from, const char *to) {
    (void)from;
    (void)to;
    return -EPERM;
}

static int pf_chmod(const char *path, mode_t mode, struct fuse_file_info *fi) {
    (void)fi;
    if (hidden(path)) return -ENOENT;
    return fchmodat(root_fd, rel(path), mode, 0) == 0 ? 0 : -errno;
}

static int pf_chown(const char *path, uid_t uid, gid_t gid, struct fuse_file_info *fi) {
    (void)fi;
    if (hidden(path)) return -ENOENT;
    return fchownat(root_fd, rel(path), uid, gid, AT_SYMLINK_NOFOLLOW) == 0 ? 0 : -errno;
}

static int pf_utimens(const char *path, const struct timespec tv[2], struct fuse_file_info *fi) {
    if (!path && fi) return futimens(((struct handle *)fi->fh)->fd, tv) == 0 ? 0 : -errno;
    if (hidden(path)) return -ENOENT;
    return utimensat(root_fd, rel(path), tv, AT_SYMLINK_NOFOLLOW) == 0 ? 0 : -errno;
}

static int pf_truncate(const char *path, off_t size, struct fuse_file_info *fi) {
    if (hidden(path)) return -ENOENT;
    int fd = fi ? ((struct handle *)fi->fh)->fd : openat(root_fd, rel(path), O_RDWR | O_CLOEXEC);
    if (fd < 0) return -errno;
    pthread_mutex_lock(&lock);
    struct node *n = node_for_fd(fd, path);
    int r = 0;
    if (!n) r = -errno;
    else if (!room_for(n->size, size)) r = -ENOSPC;
    else resize(n, size);
    pthread_mutex_unlock(&lock);
    if (!fi) close(fd);
    return r;
}

static int open_backing(const char *path, int flags, mode_t mode, int create, struct fuse_file_info *fi) {
    if (hidden(path)) return create ? -EACCES : -ENOENT;
    /* appends, truncation, O_DIRECT and O_SYNC are this layer's business, not the backing file's */
    int bflags = (flags & O_NOFOLLOW) | O_CLOEXEC;
    pthread_mutex_lock(&lock);
    int existed = create && faccessat(root_fd, rel(path), F_OK, AT_SYMLINK_NOFOLLOW) == 0;
    if (create && existed && (flags & O_EXCL)) {
        pthread_mutex_unlock(&lock);
        return -EEXIST;
    }
    int fd = openat(root_fd, rel(path), bflags | O_RDWR | (create ? O_CREAT : 0), mode);
    if (fd < 0 && (errno == EACCES || errno == EISDIR || errno == EROFS))
        fd = openat(root_fd, rel(path), bflags | (flags & O_ACCMODE) | (create ? O_CREAT : 0), mode);
    if (fd < 0) {
        int e = errno;
        pthread_mutex_unlock(&lock);
        return -e;
    }
    if (create && !existed) created(J_CREATE, path);
    struct node *n = node_for_fd(fd, path);
    n->open_count++;
    if (flags & O_TRUNC) resize(n, 0);
    fi->fh = (uint64_t)(uintptr_t)new_handle(fd, flags, n);
    pthread_mutex_unlock(&lock);
    return 0;
}

static int pf_open(const char *path, struct fuse_file_info *fi) {
    return open_backing(path, fi->flags, 0, 0, fi);
}

static int pf_create(const char *path, mode_t mode, struct fuse_file_info *fi) {
    return open_backing(path, fi->flags, mode, 1, fi);
}

static int pf_read(const char *path, char *buf, size_t size, off_t off, struct fuse_file_info *fi) {
    (void)path;
    struct handle *h = (struct handle *)fi->fh;
    pthread_mutex_lock(&lock);
    struct node *n = h->node;
    int r = 0;
    if (off >= n->size) size = 0;
    else if (off + (off_t)size > n->size) size = (size_t)(n->size - off);
    for (size_t done = 0; done < size && r == 0;) {
        off_t pos = off + (off_t)done;
        size_t in_page = PAGE - (size_t)(pos % PAGE);
        size_t len = size - done < in_page ? size - done : in_page;
        struct page *p = find_page(n, pos / PAGE);
        if (p) memcpy(buf + done, p->data + pos % PAGE, len);
        else r = read_backing(n, buf + done, len, pos);
        done += len;
    }
    pthread_mutex_unlock(&lock);
    return r ? r : (int)size;
}

static int pf_write(const char *path, const char *buf, size_t size, off_t off, struct fuse_file_info *fi) {
    (void)path;
    struct handle *h = (struct handle *)fi->fh;
    if (h->sync_writes) slow_disk();
    pthread_mutex_lock(&lock);
    struct node *n = h->node;
    int r = 0;
    off_t end = off + (off_t)size;
    if (!room_for(n->size, end)) r = -ENOSPC;
    for (size_t done = 0; done < size && r == 0;) {
        off_t pos = off + (off_t)done;
        size_t in_page = PAGE - (size_t)(pos % PAGE);
        size_t len = size - done < in_page ? size - done : in_page;
        struct page *p = page_for_write(n, pos / PAGE, &r);
        if (p) memcpy(p->data + pos % PAGE, buf + done, len);
        done += len;
    }
    if (r == 0 && end > n->size) {
        n->size = end;
        n->size_dirty = 1;
    }
    if (r == 0 && h->sync_writes) r = persist(n);
    pthread_mutex_unlock(&lock);
    return r ? r : (int)size;
}

static int pf_fallocate(const char *path, int mode, off_t off, off_t len, struct fuse_file_info *fi) {
    (void)path;
    if (mode != 0) return -EOPNOTSUPP;
    struct handle *h = (struct handle *)fi->fh;
    pthread_mutex_lock(&lock);
    struct node *n = h->node;
    int r = 0;
    if (off + len > n->size) {
        if (!room_for(n->size, off + len)) r = -ENOSPC;
        else {
            n->size = off + len;
            n->size_dirty = 1;
        }
    }
    pthread_mutex_unlock(&lock);
    return r;
}

static int pf_fsync(const char *path, int datasync, struct fuse_file_info *fi) {
    (void)path;
    (void)datasync;
    slow_disk();
    pthread_mutex_lock(&lock);
    int r = persist(((struct handle *)fi->fh)->node);
    pthread_mutex_unlock(&lock);
    return r;
}

static int pf_flush(const char *path, struct fuse_file_info *fi) {
    (void)path;
    (void)fi;
    return 0; /* close(2) is no fsync */
}

static int pf_release(const char *path, struct fuse_file_info *fi) {
    (void)path;
    struct handle *h = (struct handle *)fi->fh;
    pthread_mutex_lock(&lock);
    h->node->open_count--;
    release_if_idle(h->node);
    close(h->fd);
    free(h);
    pthread_mutex_unlock(&lock);
    return 0;
}

static int pf_statfs(const char *path, struct statvfs *st) {
    (void)path;
    if (fstatvfs(root_fd, st) != 0) return -errno;
    pthread_mutex_lock(&lock);
    if (capacity > 0) {
        st->f_blocks = (fsblkcnt_t)(capacity / (long long)st->f_frsize);
        long long free_bytes = capacity > used ? capacity - used : 0;
        st->f_bfree = st->f_bavail = (fsblkcnt_t)(free_bytes / (long long)st->f_frsize);
    }
    pthread_mutex_unlock(&lock);
    return 0;
}

static void pf_destroy(void *data) {
    (void)data;
    pthread_mutex_lock(&lock);
    cut();
    pthread_mutex_unlock(&lock);
    if (control_path) unlink(control_path);
}

static const struct fuse_operations ops = {
    .init = pf_init,
    .getattr = pf_getattr,
    .access = pf_access,
    .readlink = pf_readlink,
    .opendir = pf_opendir,
    .readdir = pf_readdir,
    .releasedir = pf_releasedir,
    .fsyncdir = pf_fsyncdir,
    .mkdir = pf_mkdir,
    .mknod = pf_mknod,
    .symlink = pf_symlink,
    .unlink = pf_unlink,
    .rmdir = pf_rmdir,
    .rename = pf_rename,
    .link = pf_link,
    .chmod = pf_chmod,
    .chown = pf_chown,
    .utimens = pf_utimens,
    .truncate = pf_truncate,
    .open = pf_open,
    .create = pf_create,
    .read = pf_read,
    .write = pf_write,
    .fallocate = pf_fallocate,
    .fsync = pf_fsync,
    .flush = pf_flush,
    .release = pf_release,
    .statfs = pf_statfs,
    .destroy = pf_destroy,
};

/* ---- the control socket ---- */

static void reply(FILE *out, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vfprintf(out, fmt, ap);
    va_end(ap);
    fputc('\n', out);
    fflush(out);
}

static void status(FILE *out) {
    size_t files = 0, pages = 0;
    for (struct node *n = nodes; n; n = n->next) {
        if (!dirty(n)) continue;
        struct stat st;
        fstat(n->fd, &st);
        reply(out, "file %s pages %zu size %lld durable-size %lld", n->path ? n->path : "?", n->npages,
              (long long)n->size, (long long)st.st_size);
        files++;
        pages += n->npages;
    }
    for (struct jent *j = jhead; j; j = j->next) {
        if (j->kind == J_RENAME) reply(out, "dir rename %s -> %s", j->path1, j->path2);
        else reply(out, "dir %s %s", jnames[j->kind], j->path1);
    }
    reply(out, "ok %zu files, %zu pages, %zu dir changes", files, pages, jcount);
}

static void command(char *line, FILE *out) {
    char *nl = strchr(line, '\n');
    if (nl) *nl = 0;
    char word[32] = "";
    long long arg = 0;
    int n = sscanf(line, "%31s %lld", word, &arg);
    pthread_mutex_lock(&lock);
    if (n >= 1 && !strcmp(word, "ping")) {
        reply(out, "ok powerfs");
    } else if (n >= 1 && !strcmp(word, "status")) {
        status(out);
    } else if (n >= 1 && !strcmp(word, "cut")) {
        cut();
        reply(out, "ok dropped %zu pages of %zu files, undid %zu dir changes", tally.pages, tally.files, tally.dirops);
    } else if (n == 2 && !strcmp(word, "torn")) {
        torn((unsigned int)arg);
        reply(out, "ok kept %zu pages and %zu dir changes; dropped %zu pages of %zu files, undid %zu dir changes",
              tally.kept_pages, tally.kept_dirops, tally.pages - tally.kept_pages, tally.files, tally.dirops);
    } else if (n >= 1 && !strcmp(word, "sync")) {
        sync_all();
        reply(out, "ok synced");
    } else if (n == 2 && !strcmp(word, "delay") && arg >= 0) {
        delay_ms = (long)arg;
        reply(out, "ok delay %lld ms", arg);
    } else if (n == 2 && !strcmp(word, "capacity") && arg >= 0) {
        capacity = arg;
        recount();
        reply(out, "ok capacity %lld bytes, %lld used", capacity, capacity > 0 ? used : 0);
    } else {
        reply(out, "error: unknown command '%s' (ping, status, cut, torn SEED, sync, delay MS, capacity BYTES)", line);
    }
    pthread_mutex_unlock(&lock);
}

static void *serve_control(void *arg) {
    int srv = (int)(intptr_t)arg;
    for (;;) {
        int c = accept(srv, NULL, NULL);
        if (c < 0) {
            if (errno == EINTR) continue;
            return NULL;
        }
        FILE *in = fdopen(c, "r+");
        char line[256];
        while (fgets(line, sizeof line, in)) command(line, in);
        fclose(in);
    }
}

static void *pf_init(struct fuse_conn_info *conn, struct fuse_config *cfg) {
    (void)conn;
    /* nothing cached in the kernel that a cut must take back, beyond the page cache a remount drops */
    cfg->kernel_cache = 0;
    cfg->auto_cache = 0;
    cfg->attr_timeout = 0;
    cfg->entry_timeout = 0;
    cfg->negative_timeout = 0;
    cfg->use_ino = 1;
    /* an unlinked file that is still open stays one inode (no .fuse_hidden rename) */
    cfg->hard_remove = 1;
    cfg->nullpath_ok = 1;
    int srv = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    struct sockaddr_un addr = {.sun_family = AF_UNIX};
    snprintf(addr.sun_path, sizeof addr.sun_path, "%s", control_path);
    unlink(control_path);
    if (srv < 0 || bind(srv, (struct sockaddr *)&addr, sizeof addr) != 0 || listen(srv, 8) != 0) {
        fprintf(stderr, "powerfs: cannot listen on %s: %s\n", control_path, strerror(errno));
        exit(1);
    }
    pthread_t t;
    pthread_create(&t, NULL, serve_control, (void *)(intptr_t)srv);
    pthread_detach(t);
    return NULL;
}

static void usage(void) {
    fprintf(stderr, "usage: powerfs --control SOCKET [--delay MS] [--capacity BYTES] BACKING MOUNTPOINT [fuse options]\n");
    exit(2);
}

int main(int argc, char **argv) {
    const char *backing = NULL;
    char **fargv = calloc((size_t)argc + 4, sizeof *fargv);
    int fargc = 0;
    fargv[fargc++] = argv[0];
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--control") && i + 1 < argc) control_path = argv[++i];
        else if (!strcmp(argv[i], "--delay") && i + 1 < argc) delay_ms = atol(argv[++i]);
        else if (!strcmp(argv[i], "--capacity") && i + 1 < argc) capacity = atoll(argv[++i]);
        else if (!backing && argv[i][0] != '-') backing = argv[i];
        else fargv[fargc++] = argv[i];
    }
    if (!backing || !control_path || fargc < 2) usage();
    if (strlen(control_path) >= sizeof(((struct sockaddr_un *)0)->sun_path)) {
        fprintf(stderr, "powerfs: control socket path too long: %s\n", control_path);
        return 2;
    }
    root_fd = open(backing, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (root_fd < 0) {
        fprintf(stderr, "powerfs: cannot open %s: %s\n", backing, strerror(errno));
        return 1;
    }
    /* what an earlier run left in the graveyard was removed before that run's end */
    mkdirat(root_fd, GRAVEYARD, 0700);
    grave_fd = openat(root_fd, GRAVEYARD, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (grave_fd < 0) {
        fprintf(stderr, "powerfs: cannot make %s/%s: %s\n", backing, GRAVEYARD, strerror(errno));
        return 1;
    }
    empty_dir(grave_fd);
    recount();
    umask(0);
    return fuse_main(fargc, fargv, &ops, NULL);
}
