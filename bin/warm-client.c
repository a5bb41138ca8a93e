/*
 * The thin client of etcdj's warm path (docs/etcdctl.md, "The warm path"). bin/etcdctl and
 * bin/etcdutl compile it on first use where a C compiler exists and run it as
 *
 *     warm-client ROOT TOOL [args...]
 *
 * ROOT is the checkout, TOOL etcdctl or etcdutl. The server's socket is in the user's private
 * directory (mode 0700): ETCDJ_WARM_DIR, else $XDG_RUNTIME_DIR/etcdj, else /tmp/etcdj-<uid>.
 * It connects to the user's resident server for ROOT, sends the call (arguments, environment,
 * working directory, which of stdin/stdout/stderr are terminals), copies the server's stdout and
 * stderr frames to its own, answers the server's stdin reads with one read of its own stdin each
 * (so it never swallows input a script meant for the next command), forwards SIGINT, SIGTERM and
 * SIGHUP, and exits with the command's exit code.
 *
 * When no server answers it starts one in the background and runs the command the direct way
 * (ROOT/bin/TOOL with ETCDJ_NO_DAEMON=1), as it does when the server hands a call back. The frame
 * format is described in etcdctl's io.etcdj.ctl.warm.Frames.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

static int signal_pipe[2] = {-1, -1};
static char root[PATH_MAX];
static const char *tool;
static char **tool_args;
static int tool_argc;

/* Runs the command line the direct way, in this process. Never returns. */
static void direct(void)
{
    char path[PATH_MAX + 32];
    snprintf(path, sizeof path, "%s/bin/%s", root, tool);
    char **argv = calloc((size_t) tool_argc + 2, sizeof *argv);
    if (argv == NULL) {
        _exit(127);
    }
    argv[0] = path;
    for (int i = 0; i < tool_argc; i++) {
        argv[i + 1] = tool_args[i];
    }
    setenv("ETCDJ_NO_DAEMON", "1", 1);
    signal(SIGPIPE, SIG_DFL);
    execv(path, argv);
    fprintf(stderr, "Error: cannot run %s: %s\n", path, strerror(errno));
    _exit(127);
}

static uint64_t fnv1a(const char *s)
{
    uint64_t h = 1469598103934665603ULL;
    for (; *s; s++) {
        h ^= (unsigned char) *s;
        h *= 1099511628211ULL;
    }
    return h;
}

/* Whether process PID has ended (gone, or a zombie its parent has not reaped yet). */
static int ended(pid_t pid)
{
    if (kill(pid, 0) != 0) {
        return errno == ESRCH;
    }
    char path[64], stat[256];
    snprintf(path, sizeof path, "/proc/%ld/stat", (long) pid);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        return 0;
    }
    ssize_t n = read(fd, stat, sizeof stat - 1);
    close(fd);
    if (n <= 0) {
        return 0;
    }
    stat[n] = 0;
    const char *end = strrchr(stat, ')');
    return end != NULL && end[1] == ' ' && end[2] == 'Z';
}

/*
 * Starts the server in the background unless one holds the lock (it is starting or running).
 * The starter takes the lock at once and hands it to the server (the same process after exec), so
 * calls made meanwhile start no server of their own. It waits for this call's direct run to end
 * (2 s at most, e.g. for a watch): on a machine with few cores the server's start-up and warm-up
 * would otherwise compete with the first call, which must not be slower than a direct run.
 */
static void start_server(const char *dir, const char *base, const char *sock)
{
    char lockpath[PATH_MAX], logpath[PATH_MAX], script[PATH_MAX + 32];
    snprintf(lockpath, sizeof lockpath, "%s/%s.lock", dir, base);
    snprintf(logpath, sizeof logpath, "%s/%s.log", dir, base);
    snprintf(script, sizeof script, "%s/bin/warm-server", root);
    int lfd = open(lockpath, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    if (lfd >= 0) {
        struct flock fl = {.l_type = F_WRLCK, .l_whence = SEEK_SET};
        int held = fcntl(lfd, F_GETLK, &fl) == 0 && fl.l_type != F_UNLCK;
        close(lfd);
        if (held) {
            return;
        }
    }
    pid_t caller = getpid();
    pid_t pid = fork();
    if (pid < 0) {
        return;
    }
    if (pid > 0) {
        waitpid(pid, NULL, 0);
        return;
    }
    /* The first child detaches; the grandchild becomes the server, owned by no terminal. */
    setsid();
    if (fork() != 0) {
        _exit(0);
    }
    /* Not close-on-exec: the lock stays with this process through the exec into the server. */
    int held = open(lockpath, O_RDWR | O_CREAT, 0600);
    struct flock mine = {.l_type = F_WRLCK, .l_whence = SEEK_SET};
    if (held < 0 || fcntl(held, F_SETLK, &mine) != 0) {
        _exit(0);
    }
    for (int waited = 0; waited < 2000 && !ended(caller); waited += 5) {
        usleep(5000);
    }
    int null = open("/dev/null", O_RDWR);
    int log = open(logpath, O_WRONLY | O_CREAT | O_APPEND, 0600);
    if (null >= 0) {
        dup2(null, 0);
        dup2(null, 1);
    }
    if (log >= 0) {
        dup2(log, 2);
    }
    if (chdir("/") != 0) {
        _exit(1);
    }
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    signal(SIGHUP, SIG_IGN);
    execl(script, script, sock, (char *) NULL);
    _exit(127);
}

/* ---- frames ---- */

static int write_all(int fd, const void *buf, size_t len)
{
    const char *p = buf;
    while (len > 0) {
        ssize_t n = write(fd, p, len);
        if (n < 0) {
            if (errno == EINTR) {
                continue;
            }
            return -1;
        }
        p += n;
        len -= (size_t) n;
    }
    return 0;
}

static int read_all(int fd, void *buf, size_t len)
{
    char *p = buf;
    while (len > 0) {
        ssize_t n = read(fd, p, len);
        if (n < 0) {
            if (errno == EINTR) {
                continue;
            }
            return -1;
        }
        if (n == 0) {
            return -1;
        }
        p += n;
        len -= (size_t) n;
    }
    return 0;
}

static void put32(unsigned char *b, uint32_t v)
{
    b[0] = v >> 24;
    b[1] = v >> 16;
    b[2] = v >> 8;
    b[3] = v;
}

static uint32_t get32(const unsigned char *b)
{
    return ((uint32_t) b[0] << 24) | ((uint32_t) b[1] << 16) | ((uint32_t) b[2] << 8) | b[3];
}

static int send_frame(int fd, char type, const void *data, uint32_t len)
{
    unsigned char head[5];
    head[0] = (unsigned char) type;
    put32(head + 1, len);
    if (write_all(fd, head, 5) < 0) {
        return -1;
    }
    return len == 0 ? 0 : write_all(fd, data, len);
}

/* A growing buffer for the call header. */
struct buf {
    unsigned char *data;
    size_t len, cap;
};

static void buf_add(struct buf *b, const void *p, size_t n)
{
    if (b->len + n > b->cap) {
        size_t cap = b->cap ? b->cap : 4096;
        while (cap < b->len + n) {
            cap *= 2;
        }
        b->data = realloc(b->data, cap);
        if (b->data == NULL) {
            _exit(127);
        }
        b->cap = cap;
    }
    memcpy(b->data + b->len, p, n);
    b->len += n;
}

static void buf_u32(struct buf *b, uint32_t v)
{
    unsigned char x[4];
    put32(x, v);
    buf_add(b, x, 4);
}

static void buf_str(struct buf *b, const char *s)
{
    size_t n = strlen(s);
    buf_u32(b, (uint32_t) n);
    buf_add(b, s, n);
}

/* The real path of the java the launcher would run: the first one on PATH. */
static void find_java(char *out, size_t size)
{
    out[0] = 0;
    const char *path = getenv("PATH");
    if (path == NULL) {
        return;
    }
    char *copy = strdup(path);
    for (char *save = NULL, *d = strtok_r(copy, ":", &save); d != NULL; d = strtok_r(NULL, ":", &save)) {
        char candidate[PATH_MAX];
        snprintf(candidate, sizeof candidate, "%s/java", *d ? d : ".");
        if (access(candidate, X_OK) == 0) {
            char real[PATH_MAX];
            if (realpath(candidate, real) != NULL) {
                snprintf(out, size, "%s", real);
            }
            break;
        }
    }
    free(copy);
}

static void on_signal(int sig)
{
    unsigned char s = (unsigned char) sig;
    int saved = errno;
    if (write(signal_pipe[1], &s, 1) < 0) {
        /* the pipe is full: a signal is already pending */
    }
    errno = saved;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: warm-client ROOT TOOL [args...]\n");
        return 2;
    }
    if (realpath(argv[1], root) == NULL) {
        snprintf(root, sizeof root, "%s", argv[1]);
    }
    tool = argv[2];
    tool_args = argv + 3;
    tool_argc = argc - 3;

    char dir[PATH_MAX];
    const char *xdg = getenv("XDG_RUNTIME_DIR");
    struct stat st;
    if (getenv("ETCDJ_WARM_DIR") != NULL && *getenv("ETCDJ_WARM_DIR")) {
        snprintf(dir, sizeof dir, "%s", getenv("ETCDJ_WARM_DIR"));
    } else if (xdg != NULL && *xdg && stat(xdg, &st) == 0 && S_ISDIR(st.st_mode) && st.st_uid == getuid()) {
        snprintf(dir, sizeof dir, "%s/etcdj", xdg);
    } else {
        snprintf(dir, sizeof dir, "/tmp/etcdj-%u", (unsigned) getuid());
    }
    if (mkdir(dir, 0700) != 0 && errno != EEXIST) {
        direct();
    }
    /* The server runs in "/": a relative ETCDJ_WARM_DIR must not change meaning for it. */
    char absdir[PATH_MAX];
    if (dir[0] != '/') {
        if (realpath(dir, absdir) == NULL) {
            direct();
        }
        snprintf(dir, sizeof dir, "%s", absdir);
    }

    /* Only a private directory of our own: anyone else could otherwise serve our calls. */
    if (lstat(dir, &st) != 0 || !S_ISDIR(st.st_mode) || st.st_uid != getuid() || (st.st_mode & 077) != 0) {
        direct();
    }
    char base[32], sock[PATH_MAX + 64];
    snprintf(base, sizeof base, "%016llx", (unsigned long long) fnv1a(root));
    snprintf(sock, sizeof sock, "%s/%s.sock", dir, base);
    struct sockaddr_un addr = {.sun_family = AF_UNIX};
    if (strlen(sock) >= sizeof addr.sun_path) {
        direct();
    }
    strcpy(addr.sun_path, sock);
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) {
        direct();
    }
    if (connect(fd, (struct sockaddr *) &addr, sizeof addr) != 0) {
        close(fd);
        start_server(dir, base, sock);
        direct();
    }

    char cwd[PATH_MAX], java[PATH_MAX];
    if (getcwd(cwd, sizeof cwd) == NULL) {
        close(fd);
        direct();
    }
    find_java(java, sizeof java);
    char ttys[4] = {isatty(0) ? '1' : '0', isatty(1) ? '1' : '0', isatty(2) ? '1' : '0', 0};
    struct buf h = {0};
    buf_str(&h, "EJW1");
    buf_str(&h, tool);
    buf_str(&h, cwd);
    buf_str(&h, java);
    buf_str(&h, ttys);
    buf_u32(&h, (uint32_t) tool_argc);
    for (int i = 0; i < tool_argc; i++) {
        buf_str(&h, tool_args[i]);
    }
    uint32_t envc = 0;
    for (char **e = environ; *e; e++) {
        envc++;
    }
    buf_u32(&h, envc);
    for (char **e = environ; *e; e++) {
        buf_str(&h, *e);
    }

    if (pipe2(signal_pipe, O_CLOEXEC | O_NONBLOCK) != 0) {
        close(fd);
        direct();
    }
    /* As the JVM does: a signal ignored at start (e.g. SIGINT of a background job) stays ignored. */
    int forwarded[] = {SIGINT, SIGTERM, SIGHUP};
    for (size_t i = 0; i < sizeof forwarded / sizeof forwarded[0]; i++) {
        struct sigaction old, sa = {0};
        if (sigaction(forwarded[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN) {
            continue;
        }
        sa.sa_handler = on_signal;
        sigemptyset(&sa.sa_mask);
        sigaction(forwarded[i], &sa, NULL);
    }
    /* Like the JVM: a closed stdout makes writes fail, it does not kill the command. */
    signal(SIGPIPE, SIG_IGN);

    if (send_frame(fd, 'H', h.data, (uint32_t) h.len) < 0) {
        close(fd);
        direct();
    }
    free(h.data);

    uint32_t want = 0; /* bytes the server asked to read from stdin; 0: no read pending */
    int started = 0; /* the server took the call: from then on it must never be run a second time */
    int signalled = 0;
    size_t cap = 64 * 1024;
    unsigned char *data = malloc(cap);
    if (data == NULL) {
        return 127;
    }
    for (;;) {
        struct pollfd p[3] = {
            {.fd = fd, .events = POLLIN},
            {.fd = signal_pipe[0], .events = POLLIN},
            {.fd = 0, .events = POLLIN},
        };
        int n = poll(p, want > 0 ? 3 : 2, -1);
        if (n < 0) {
            if (errno == EINTR) {
                continue;
            }
            return 1;
        }
        if (p[1].revents & POLLIN) {
            unsigned char sig;
            while (read(signal_pipe[0], &sig, 1) == 1) {
                signalled = sig;
                send_frame(fd, 'S', &sig, 1);
            }
        }
        if (want > 0 && (p[2].revents & (POLLIN | POLLHUP | POLLERR | POLLNVAL))) {
            size_t ask = want < cap ? want : cap;
            ssize_t r;
            do {
                r = read(0, data, ask);
            } while (r < 0 && errno == EINTR);
            send_frame(fd, 'I', data, r > 0 ? (uint32_t) r : 0);
            want = 0;
        }
        if (!(p[0].revents & (POLLIN | POLLHUP | POLLERR))) {
            continue;
        }
        unsigned char head[5];
        if (read_all(fd, head, 5) < 0) {
            break;
        }
        uint32_t len = get32(head + 1);
        if (len > cap) {
            unsigned char *bigger = realloc(data, len);
            if (bigger == NULL) {
                return 127;
            }
            data = bigger;
            cap = len;
        }
        if (read_all(fd, data, len) < 0) {
            break;
        }
        switch (head[0]) {
        case 'A':
            started = 1;
            break;
        case 'O':
            write_all(1, data, len);
            break;
        case 'E':
            write_all(2, data, len);
            break;
        case 'R':
            if (len == 4) {
                want = get32(data);
            }
            break;
        case 'X':
            return len == 4 ? (int) (get32(data) & 0xff) : 1;
        case 'F':
            close(fd);
            direct();
            break;
        case 'T':
            close(fd);
            start_server(dir, base, sock);
            direct();
            break;
        default:
            break;
        }
    }
    /* The server went away without an exit code. */
    if (signalled) {
        return 128 + signalled;
    }
    if (!started) {
        /* e.g. it retired while this call was still waiting to be accepted: the command never ran */
        close(fd);
        direct();
    }
    fprintf(stderr, "Error: the etcdj warm server ended before the command finished\n");
    return 1;
}
