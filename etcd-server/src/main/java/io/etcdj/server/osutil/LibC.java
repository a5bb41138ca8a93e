package io.etcdj.server.osutil;

import com.kenai.jffi.CallContext;
import com.kenai.jffi.CallingConvention;
import com.kenai.jffi.Invoker;
import com.kenai.jffi.LastError;
import com.kenai.jffi.Library;
import com.kenai.jffi.Type;

/**
 * The C library's functions a member needs and Java has no API for, called through jffi (the JNI
 * stub the LMDB binding uses too): the symbols are the process's own, the C library being loaded
 * by the JVM itself. Bound on first use: a member that never calls one loads nothing of this.
 */
public final class LibC {
    private static final long SIG_DFL = 0;
    /** Linux's {@code F_DUPFD_CLOEXEC} (asm-generic/fcntl.h: F_LINUX_SPECIFIC_BASE + 6). */
    private static final int F_DUPFD_CLOEXEC = 1030;

    private LibC() {
    }

    /** {@code kill(2)}: 0, or the errno it failed with. */
    public static int kill(long pid, int signal) {
        return Bound.errno(Invoker.getInstance().invokeI2(Bound.TWO_INTS, Bound.KILL, (int) pid, signal));
    }

    /**
     * {@code signal(2)} with {@code SIG_DFL}: the kernel's default action for {@code signal} from now
     * on, whatever the process inherited; the JVM has no way to undo an inherited {@code SIG_IGN}.
     */
    public static void defaultAction(int signal) {
        Invoker.getInstance().invokeN2(Bound.INT_AND_POINTER, Bound.SIGNAL, signal, SIG_DFL);
    }

    /** {@code mlockall(2)}: 0, or the errno it failed with. */
    public static int mlockall(int flags) {
        return Bound.errno(Invoker.getInstance().invokeI1(Bound.ONE_INT, Bound.MLOCKALL, flags));
    }

    /**
     * {@code fcntl(fd, F_DUPFD_CLOEXEC, 0)}: a new descriptor for {@code fd}'s open file (the lowest
     * free number), closed on exec; or the errno it failed with, negated.
     */
    public static int duplicate(int fd) {
        int result = Invoker.getInstance().invokeI3(Bound.FCNTL_INTS, Bound.FCNTL, fd, F_DUPFD_CLOEXEC, 0);
        return result >= 0 ? result : -LastError.getInstance().get();
    }

    private static final class Bound {
        static final CallContext ONE_INT = CallContext.getCallContext(Type.SINT, new Type[] {Type.SINT},
                CallingConvention.DEFAULT, true);
        static final CallContext TWO_INTS = CallContext.getCallContext(Type.SINT, new Type[] {Type.SINT, Type.SINT},
                CallingConvention.DEFAULT, true);
        static final CallContext INT_AND_POINTER = CallContext.getCallContext(Type.POINTER,
                new Type[] {Type.SINT, Type.POINTER}, CallingConvention.DEFAULT, false);
        /** fcntl is variadic: two fixed arguments, then the int its command takes. */
        static final CallContext FCNTL_INTS = CallContext.getCallContext(Type.SINT, 2,
                new Type[] {Type.SINT, Type.SINT, Type.SINT}, CallingConvention.DEFAULT, true);
        static final long KILL = symbol("kill");
        static final long SIGNAL = symbol("signal");
        static final long MLOCKALL = symbol("mlockall");
        static final long FCNTL = symbol("fcntl");

        private static long symbol(String name) {
            long address = Library.getDefault().getSymbolAddress(name);
            if (address == 0) {
                throw new UnsatisfiedLinkError("the C library has no " + name + ": " + Library.getLastError());
            }
            return address;
        }

        /** A function's result as 0 or the errno it set (these return -1 on failure). */
        static int errno(int result) {
            return result == 0 ? 0 : LastError.getInstance().get();
        }
    }
}
