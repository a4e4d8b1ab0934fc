/*
 * A program under test that attacks its judge, one attack per subcommand.
 *
 * Each attack says what it reached on standard error, one line:
 *
 *     reached: WHAT          the attack succeeded
 *     blocked: WHY           it did not
 *
 * and exits 42 when it reached something, 0 when not; it prints nothing on
 * standard output (so a judge that ran it gives a wrong answer, or a runtime
 * error for status 42). The tests run each attack in the sandbox, where it
 * must be blocked, and where the sandbox is not, where it must reach what it
 * aims at: so each test shows that its probe can see success.
 *
 * Every attack is safe to succeed: none writes a kernel setting (files of
 * /proc/sys are opened for writing and closed at once, never written), and
 * files are created only in folders the test names.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <linux/netlink.h>
#include <linux/vm_sockets.h>
#include <mqueue.h>
#include <netinet/in.h>
#include <sched.h>
#include <signal.h>
#include <sys/inotify.h>
#include <sys/ipc.h>
#include <sys/mman.h>
#include <sys/msg.h>
#include <sys/shm.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <dirent.h>
#include <stddef.h>
#include <time.h>
#include <unistd.h>

static int reached;
static char first[512];

/* Records one success; the first one is what the report names. */
static void reach(const char *what) {
    if (!reached++) snprintf(first, sizeof first, "%s", what);
}

static int report(const char *blocked) {
    if (reached) {
        fprintf(stderr, "reached: %s (%d in all)\n", first, reached);
        return 42;
    }
    fprintf(stderr, "blocked: %s\n", blocked);
    return 0;
}

/* ---- kernel settings ---- */

static int writable_files;
static int open_for_writing(const char *path, const struct stat *st, int type, struct FTW *ftw) {
    (void) st; (void) ftw;
    if (type != FTW_F) return 0;
    /* Opened, never written: opening a sysctl changes nothing. */
    int fd = open(path, O_WRONLY | O_CLOEXEC);
    if (fd >= 0) {
        close(fd);
        writable_files++;
        reach(path);
    }
    return 0;
}

/* Every file of /proc/sys, /proc/sysrq-trigger, and the files named. */
static int kernel(int argc, char **argv) {
    open_for_writing("/proc/sys/kernel/core_pattern", NULL, FTW_F, NULL);
    open_for_writing("/proc/sysrq-trigger", NULL, FTW_F, NULL);
    nftw("/proc/sys", open_for_writing, 16, FTW_PHYS);
    for (int i = 0; i < argc; i++) open_for_writing(argv[i], NULL, FTW_F, NULL);
    if (access("/sys/kernel", F_OK) == 0) fprintf(stderr, "note: /sys is visible\n");
    return report("no file of /proc/sys, nor /proc/sysrq-trigger, opens for writing");
}

/* ---- root's files ---- */

static int root_files(int argc, char **argv) {
    const char *paths[64] = {"/etc/shadow", "/root/.bashrc", "/root/.profile"};
    int count = 3;
    for (int i = 0; i < argc && count < 64; i++) paths[count++] = argv[i];
    for (int i = 0; i < count; i++) {
        int fd = open(paths[i], O_RDONLY | O_CLOEXEC);
        char byte;
        if (fd >= 0 && read(fd, &byte, 1) >= 0) reach(paths[i]);
        if (fd >= 0) close(fd);
    }
    DIR *root = opendir("/root");
    if (root) {
        if (readdir(root)) reach("/root (listed)");
        closedir(root);
    }
    return report("no root-only file read, /root not listed");
}

/* ---- sockets ---- */

static int unix_stream(const char *path) {
    struct sockaddr_un address = {.sun_family = AF_UNIX};
    strncpy(address.sun_path, path, sizeof address.sun_path - 1);
    int fd = socket(AF_UNIX, SOCK_STREAM, 0);
    if (fd < 0) return report("socket(AF_UNIX) refused");
    if (connect(fd, (struct sockaddr *) &address, sizeof address) == 0) reach(path);
    return report("connect failed");
}

/* The attack: a datagram socket pair, then sendto a socket file. */
static int unix_datagram(const char *path) {
    struct sockaddr_un address = {.sun_family = AF_UNIX};
    strncpy(address.sun_path, path, sizeof address.sun_path - 1);
    int pair[2];
    if (socketpair(AF_UNIX, SOCK_DGRAM, 0, pair) != 0)
        return report("socketpair(AF_UNIX, SOCK_DGRAM) refused");
    if (sendto(pair[0], "attack", 6, 0, (struct sockaddr *) &address, sizeof address) == 6)
        reach(path);
    return report("sendto failed");
}

static int abstract(const char *name) {
    struct sockaddr_un address = {.sun_family = AF_UNIX};
    strncpy(address.sun_path + 1, name, sizeof address.sun_path - 2);
    socklen_t length = offsetof(struct sockaddr_un, sun_path) + 1 + strlen(name);
    int fd = socket(AF_UNIX, SOCK_STREAM, 0);
    if (fd < 0) return report("socket(AF_UNIX) refused");
    if (connect(fd, (struct sockaddr *) &address, length) == 0) reach(name);
    return report("connect to the abstract name failed");
}

static int loopback(int type, int port) {
    struct sockaddr_in address = {.sin_family = AF_INET, .sin_port = htons(port)};
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    int fd = socket(AF_INET, type, 0);
    if (fd < 0) return report("socket(AF_INET) refused");
    if (type == SOCK_STREAM) {
        if (connect(fd, (struct sockaddr *) &address, sizeof address) == 0) reach("127.0.0.1 (TCP)");
    } else if (sendto(fd, "attack", 6, 0, (struct sockaddr *) &address, sizeof address) == 6) {
        reach("127.0.0.1 (UDP datagram sent)");
    }
    return report("no connection");
}

static int families(void) {
    int fd = socket(AF_VSOCK, SOCK_STREAM, 0);
    if (fd >= 0) reach("a vsock socket");
    else if (errno != EAFNOSUPPORT) fprintf(stderr, "vsock: %s\n", strerror(errno));
    fd = socket(AF_NETLINK, SOCK_RAW, NETLINK_ROUTE);
    if (fd >= 0) reach("a netlink socket");
    return report("neither vsock nor netlink sockets");
}

/* ---- memory the kernel holds, outside the address space ---- */

static char block[1 << 16];

/* Fills a pipe or socket's queue without blocking; the bytes queued. */
static long fill(int fd) {
    long queued = 0;
    ssize_t written;
    while ((written = write(fd, block, sizeof block)) > 0) queued += written;
    return queued;
}

/* A pipe of 1 MiB, full, passed in flight over `carrier` (SCM_RIGHTS) and
 * closed here: held by nothing but the message. The bytes queued, or -1;
 * a full carrier is replaced by a new socket pair. */
static long in_flight(int *carrier) {
    int ends[2];
    if (pipe2(ends, O_NONBLOCK) != 0) return -1;
    fcntl(ends[1], F_SETPIPE_SZ, 1 << 20);
    long queued = fill(ends[1]);
    char control[CMSG_SPACE(2 * sizeof(int))] = {0};
    char byte = 0;
    struct iovec data = {&byte, 1};
    struct msghdr message = {.msg_iov = &data, .msg_iovlen = 1, .msg_control = control, .msg_controllen = sizeof control};
    struct cmsghdr *rights = CMSG_FIRSTHDR(&message);
    rights->cmsg_level = SOL_SOCKET;
    rights->cmsg_type = SCM_RIGHTS;
    rights->cmsg_len = CMSG_LEN(2 * sizeof(int));
    memcpy(CMSG_DATA(rights), ends, 2 * sizeof(int));
    ssize_t sent = sendmsg(*carrier, &message, MSG_DONTWAIT);
    if (sent != 1 && errno == EAGAIN) {
        int pair[2];
        if (socketpair(AF_UNIX, SOCK_STREAM, 0, pair) == 0) {
            *carrier = pair[0];
            sent = sendmsg(*carrier, &message, MSG_DONTWAIT);
        }
    }
    close(ends[0]);
    close(ends[1]);
    return sent == 1 ? queued : -1;
}

/* The name of the INDEXth file of 1 MiB the attack writes: in /dev/shm and
 * in /tmp (TMPDIR), taken turn about. */
static void tmpfs_name(char *path, size_t size, long index) {
    const char *tmp = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
    snprintf(path, size, "%s/attack-%d-%ld", index % 2 ? tmp : "/dev/shm", (int) getpid(), index);
}

/* The INDEXth file of 1 MiB, written and closed: the bytes written. */
static long tmpfs_file(long index) {
    char path[4096];
    tmpfs_name(path, sizeof path, index);
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd < 0) return -1;
    long written = 0;
    for (int i = 0; i < 16; i++) {
        ssize_t chunk = write(fd, block, sizeof block);
        if (chunk <= 0) break;
        written += chunk;
    }
    close(fd);
    return written == 16 * (long) sizeof block ? written : -1;
}

/* Removes the files tmpfs_file wrote (the one that failed too). */
static void remove_tmpfs_files(long count) {
    for (long index = 0; index <= count; index++) {
        char path[4096];
        tmpfs_name(path, sizeof path, index);
        unlink(path);
    }
}

/* The System V objects made, removed before the attack ends: they would
 * outlive it in the machine's IPC namespace (a run's goes with the run). */
static int shm_ids[4096], msg_ids[65536], shm_made, msg_made;

static void remove_ipc(void) {
    for (int i = 0; i < shm_made; i++) shmctl(shm_ids[i], IPC_RMID, NULL);
    for (int i = 0; i < msg_made; i++) msgctl(msg_ids[i], IPC_RMID, NULL);
}

/* Kernel memory: MIB mebibytes held in socket pairs' queues, pipes, a
 * memfd, System V shared memory or message queues, POSIX message queues,
 * files in /tmp and /dev/shm, or pipes in flight over a socket pair. */
static int kernel_memory(const char *how, long mib) {
    /* As high as each may go: only root may raise a hard limit (and no
     * limit on descriptors may pass the kernel's nr_open). */
    struct rlimit raised[] = {{1 << 20, 1 << 20}, {RLIM_INFINITY, RLIM_INFINITY}};
    int resources[] = {RLIMIT_NOFILE, RLIMIT_MSGQUEUE};
    for (int i = 0; i < 2; i++) {
        if (setrlimit(resources[i], &raised[i]) != 0 && getrlimit(resources[i], &raised[i]) == 0) {
            raised[i].rlim_cur = raised[i].rlim_max;
            setrlimit(resources[i], &raised[i]);
        }
    }
    memset(block, 1, sizeof block);
    long held = 0, goal = mib << 20, step;
    const char *failed = NULL;
    int carrier[2] = {-1, -1}, memfd = -1;
    if (!strcmp(how, "inflight") && socketpair(AF_UNIX, SOCK_STREAM, 0, carrier) != 0) failed = "socketpair";
    if (!strcmp(how, "memfd") && (memfd = memfd_create("attack", 0)) < 0) failed = "memfd_create";
    for (long index = 0; !failed && held < goal; index++) {
        step = -1;
        if (!strcmp(how, "pipes") || !strcmp(how, "socketpairs")) {
            int ends[2];
            int pipes = !strcmp(how, "pipes");
            if ((pipes ? pipe2(ends, O_NONBLOCK) : socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0, ends)) == 0) {
                if (pipes) fcntl(ends[1], F_SETPIPE_SZ, 1 << 20);
                else {
                    int size = 1 << 30;
                    setsockopt(ends[1], SOL_SOCKET, SO_SNDBUF, &size, sizeof size);
                }
                step = fill(ends[1]);
            }
        } else if (!strcmp(how, "memfd")) {
            step = write(memfd, block, sizeof block);
        } else if (!strcmp(how, "sysv-shm")) {
            int id = shm_made < 4096 ? shmget(IPC_PRIVATE, 16 << 20, IPC_CREAT | 0600) : -1;
            if (id >= 0) shm_ids[shm_made++] = id;
            char *at = id < 0 ? (char *) -1 : shmat(id, NULL, 0);
            if (at != (char *) -1) {
                memset(at, 1, 16 << 20);
                shmdt(at);
                step = 16 << 20;
            }
        } else if (!strcmp(how, "sysv-msg")) {
            /* A queue of its own for each 16 KiB (msgmnb), filled. */
            int id = msg_made < 65536 ? msgget(IPC_PRIVATE, IPC_CREAT | 0600) : -1;
            if (id >= 0) msg_ids[msg_made++] = id;
            static struct { long type; char text[4096]; } message = {1, {0}};
            if (id >= 0) {
                step = 0;
                while (msgsnd(id, &message, sizeof message.text, IPC_NOWAIT) == 0) step += sizeof message.text;
                if (step == 0) step = -1;
            }
        } else if (!strcmp(how, "posix-mq")) {
            char name[64];
            snprintf(name, sizeof name, "/attack-%d-%ld", (int) getpid(), index);
            struct mq_attr attributes = {.mq_maxmsg = 10, .mq_msgsize = 8192};
            mqd_t queue = mq_open(name, O_WRONLY | O_CREAT | O_EXCL | O_NONBLOCK, 0600, &attributes);
            if (queue != (mqd_t) -1) {
                mq_unlink(name);
                step = 0;
                while (mq_send(queue, block, 8192, 0) == 0) step += 8192;
                if (step == 0) step = -1;
            }
        } else if (!strcmp(how, "tmpfs")) {
            step = tmpfs_file(index);
        } else if (!strcmp(how, "inflight")) {
            step = in_flight(&carrier[0]);
        } else {
            fprintf(stderr, "unknown kind %s\n", how);
            return 2;
        }
        if (step < 0) failed = how;
        else held += step;
    }
    if (failed) fprintf(stderr, "%s after %ld MiB: %s\n", failed, held >> 20, strerror(errno));
    remove_ipc();
    if (!strcmp(how, "tmpfs")) remove_tmpfs_files(held >> 20);
    fprintf(stderr, "held %ld KiB\n", held >> 10);
    if (held >= goal) {
        static char what[64];
        snprintf(what, sizeof what, "%ld MiB held in %s", held >> 20, how);
        reach(what);
    }
    return report("the memory could not be held");
}

/* Byte-range locks, COUNT of them on one file of the work folder: each a
 * kernel object outside the address space. */
static int record_locks(long count) {
    char path[4096];
    const char *tmp = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
    snprintf(path, sizeof path, "%s/attack-locks-%d", tmp, (int) getpid());
    int fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd < 0) return report("no file to lock");
    unlink(path);
    long made = 0;
    for (long i = 0; i < count; i++) {
        struct flock lock = {.l_type = F_WRLCK, .l_whence = SEEK_SET, .l_start = 2 * i, .l_len = 1};
        if (fcntl(fd, F_SETLK, &lock) != 0) {
            fprintf(stderr, "lock %ld: %s\n", i, strerror(errno));
            break;
        }
        made++;
    }
    if (made >= count) {
        static char what[64];
        snprintf(what, sizeof what, "%ld record locks held", made);
        reach(what);
    }
    return report("the locks could not be held");
}

/* Runs a copy of itself that it may run but not read, written in /tmp
 * (TMPDIR) and in /dev/shm: such a process is one the kernel takes a task
 * clock away from. */
static int exec_written(void) {
    const char *tmp = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
    const char *folders[] = {tmp, "/dev/shm"};
    for (int i = 0; i < 2; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/attack-exec-%d", folders[i], (int) getpid());
        int in = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
        int out = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0700);
        if (in < 0 || out < 0) {
            fprintf(stderr, "%s: %s\n", path, strerror(errno));
            continue;
        }
        char buffer[1 << 16];
        ssize_t got;
        while ((got = read(in, buffer, sizeof buffer)) > 0) write(out, buffer, got);
        close(in);
        close(out);
        chmod(path, 0111);
        pid_t child = fork();
        if (child == 0) {
            execl(path, "attack-exec-probe", (char *) NULL);
            _exit(127);
        }
        int status = 0;
        waitpid(child, &status, 0);
        if (WIFEXITED(status) && WEXITSTATUS(status) == 7) reach(folders[i]);
        unlink(path);
    }
    return report("no file it wrote could be run");
}

/* ---- counts the kernel keeps per user ---- */

/* Inotify instances and queued signals, as many as it can: more than a run
 * needs is reached (the sandbox allows 8 and 256). */
static int user_counts(void) {
    int instances = 0;
    while (instances < 4096 && inotify_init1(IN_CLOEXEC) >= 0) instances++;
    if (instances > 64) {
        static char what[64];
        snprintf(what, sizeof what, "%d inotify instances", instances);
        reach(what);
    }
    sigset_t realtime;
    sigemptyset(&realtime);
    sigaddset(&realtime, SIGRTMIN);
    sigprocmask(SIG_BLOCK, &realtime, NULL);
    union sigval value = {0};
    int queued = 0;
    while (queued < 4096 && sigqueue(getpid(), SIGRTMIN, value) == 0) queued++;
    if (queued > 1024) {
        static char what[64];
        snprintf(what, sizeof what, "%d signals queued", queued);
        reach(what);
    }
    fprintf(stderr, "%d inotify instances, %d signals queued\n", instances, queued);
    return report("no more inotify instances nor queued signals than a run needs");
}

/* ---- the CPU ---- */

/* COUNT children, each in a session of its own where it may start one,
 * spinning, as the parent does (MARK, an argument, marks them). */
static int sessions(int count) {
    int own = 0;
    for (int i = 0; i < count; i++) {
        pid_t child = fork();
        if (child == 0) {
            if (setsid() >= 0) fprintf(stderr, "a session of its own\n");
            for (volatile unsigned long x = 0;; x++) {}
        }
        if (child > 0) own++;
    }
    fprintf(stderr, "%d children\n", own);
    for (volatile unsigned long x = 0;; x++) {}
    return 0;
}

/* MILLISECONDS of CPU time spent in children of 5 ms each, which the
 * kernel reaps by itself (SIGCHLD ignored), then the program given. */
static int auto_reaped(long milliseconds, char **program) {
    signal(SIGCHLD, SIG_IGN);
    for (long spent = 0; spent < milliseconds; spent += 5) {
        pid_t child = fork();
        if (child == 0) {
            while (clock() < 5 * (CLOCKS_PER_SEC / 1000)) {}
            _exit(0);
        }
        /* One at a time: wait for it to be gone. */
        while (child > 0 && kill(child, 0) == 0) usleep(200);
    }
    signal(SIGCHLD, SIG_DFL);
    execv(program[0], program);
    return 127;
}

/* MILLISECONDS of CPU time, then the program given. */
static int burn(long milliseconds, char **program) {
    while (clock() < milliseconds * (CLOCKS_PER_SEC / 1000)) {}
    execv(program[0], program);
    return 127;
}

/* ---- what the sandbox tells of the machine ---- */

/* Whether a mount table line's root (the folder of its filesystem it
 * shows) is a path of the machine other than where it is mounted: for the
 * filesystems of disks, not the sandbox's own tmpfs, proc and devices. */
static int names_a_machine_path(char *line) {
    char root[4096], at[4096], type[64];
    char *dash = strstr(line, " - ");
    if (!dash || sscanf(line, "%*s %*s %*s %4095s %4095s", root, at) != 2) return 0;
    if (sscanf(dash + 3, "%63s", type) != 1) return 0;
    const char *own[] = {"tmpfs", "devtmpfs", "proc", "devpts", "mqueue", "sysfs", "cgroup", "cgroup2"};
    for (size_t i = 0; i < sizeof own / sizeof *own; i++)
        if (!strcmp(type, own[i])) return 0;
    size_t root_length = strlen(root), at_length = strlen(at);
    /* A subvolume's name before the path is the filesystem's, not a path. */
    return !(root_length >= at_length && !strcmp(root + root_length - at_length, at));
}

/* The run's cgroups named as the machine's, and machine paths in its mount
 * table that it is not shown at. */
static int host_view(void) {
    char line[8192];
    if (gethostname(line, sizeof line) == 0 && strcmp(line, "sandbox") != 0) {
        char what[8300];
        snprintf(what, sizeof what, "the machine's name, %s", line);
        reach(what);
    }
    FILE *cgroups = fopen("/proc/self/cgroup", "r");
    while (cgroups && fgets(line, sizeof line, cgroups)) {
        char *path = strchr(line, ':');
        path = path ? strchr(path + 1, ':') : NULL;
        if (path && strcmp(path + 1, "/\n") != 0) {
            line[strcspn(line, "\n")] = 0;
            reach(line);
        }
    }
    FILE *mounts = fopen("/proc/self/mountinfo", "r");
    while (mounts && fgets(line, sizeof line, mounts)) {
        if (strstr(line, "rotation-game") || names_a_machine_path(line)) {
            line[strcspn(line, "\n")] = 0;
            reach(line);
        }
    }
    return report("no cgroup of the machine named, no machine path in the mount table but those shown");
}

/* ---- files named ---- */

/* Reads each file named (a leading '@' dropped). */
static int read_named(int argc, char **argv) {
    for (int i = 0; i < argc; i++) {
        const char *path = argv[i][0] == '@' ? argv[i] + 1 : argv[i];
        int fd = open(path, O_RDONLY | O_CLOEXEC);
        char byte;
        if (fd >= 0 && read(fd, &byte, 1) >= 0) reach(path);
        if (fd >= 0) close(fd);
    }
    return report("no file named could be read");
}

/* ---- processes ---- */

/* Leaves a process behind: a daemon, in a session of its own, that sleeps
 * for SECONDS (a number that marks it for the test to find). */
static int leave(const char *seconds) {
    pid_t child = fork();
    if (child == 0) {
        setsid();
        if (fork() == 0) {
            /* Its standard streams closed, so that nothing waits for it. */
            int null = open("/dev/null", O_RDWR);
            dup2(null, 0);
            dup2(null, 1);
            dup2(null, 2);
            execl("/bin/sleep", "sleep", seconds, (char *) NULL);
            _exit(127);
        }
        _exit(0);
    }
    waitpid(child, NULL, 0);
    return report("left a sleeper behind; the test looks for it");
}

static int trace(void) {
    pid_t child = fork();
    if (child == 0) {
        pause();
        _exit(0);
    }
    if (ptrace(PTRACE_ATTACH, child, NULL, NULL) == 0) reach("ptrace of its own child");
    long word = 0;
    struct iovec local = {&word, sizeof word}, remote = {&word, sizeof word};
    if (process_vm_readv(child, &local, 1, &remote, 1, 0) > 0) reach("process_vm_readv of its own child");
    /* Only its own child: tracing anything else could stop a process of the
     * machine when the attack succeeds outside a sandbox. */
    kill(child, SIGKILL);
    waitpid(child, NULL, 0);
    return report("no ptrace, no process_vm_readv");
}

static int user_namespace(void) {
    pid_t child = fork();
    if (child == 0) _exit(unshare(CLONE_NEWUSER) == 0 ? 0 : 1);
    int status;
    waitpid(child, &status, 0);
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0) reach("unshare(CLONE_NEWUSER)");
    long pid = syscall(SYS_clone, CLONE_NEWUSER | SIGCHLD, 0, 0, 0, 0);
    if (pid == 0) _exit(0);
    if (pid > 0) {
        waitpid(pid, NULL, 0);
        reach("clone(CLONE_NEWUSER)");
    }
    return report("no new user namespace");
}

static int io_uring(void) {
    char parameters[120] = {0};
    long fd = syscall(425, 8, parameters);
    if (fd >= 0) reach("an io_uring");
    return report("no io_uring");
}

/* More processes than the run's own: init, itself, and its parent shell at
 * most. */
static int processes(void) {
    DIR *proc = opendir("/proc");
    struct dirent *entry;
    int seen = 0;
    while (proc && (entry = readdir(proc)))
        if (entry->d_name[0] >= '1' && entry->d_name[0] <= '9') seen++;
    if (seen > 3) {
        static char what[64];
        snprintf(what, sizeof what, "%d processes in /proc", seen);
        reach(what);
    }
    return report("only the run's own processes in /proc");
}

/* Root, or a capability. */
static int privileges(void) {
    if (getuid() == 0 || geteuid() == 0) reach("uid 0");
    FILE *status = fopen("/proc/self/status", "r");
    char line[256];
    while (status && fgets(line, sizeof line, status))
        if (strncmp(line, "CapEff:", 7) == 0 && strtoull(line + 7, NULL, 16) != 0) reach("a capability");
    return report("not root, no capability");
}

/* ---- files ---- */

/* A folder named with a leading '@': the test's way of naming a place
 * without the judge showing it in the sandbox. */
static const char *place(const char *named) {
    return named[0] == '@' ? named + 1 : named;
}

static int write_in(int argc, char **argv) {
    for (int i = 0; i < argc; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/attack-%d", place(argv[i]), (int) getpid());
        int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
        if (fd >= 0) {
            close(fd);
            unlink(path);
            reach(place(argv[i]));
        }
    }
    return report("no folder named was writable");
}

/* Reads every file under FOLDER; looks for other runs' marker files in the
 * temporary folder, in other processes' roots and in the host's runs'
 * folders; leaves its own marker MARKER-PID first. */
static int files_read;
static int read_file(const char *path, const struct stat *st, int type, struct FTW *ftw) {
    (void) st; (void) ftw;
    if (type != FTW_F) return 0;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    char byte;
    if (fd >= 0 && read(fd, &byte, 1) >= 0) {
        files_read++;
        reach(path);
    }
    if (fd >= 0) close(fd);
    return 0;
}

static const char *marker;
static char own[256];
static int find_marker(const char *path, const struct stat *st, int type, struct FTW *ftw) {
    (void) st; (void) ftw;
    const char *name = strrchr(path, '/');
    name = name ? name + 1 : path;
    if (type == FTW_F && strncmp(name, marker, strlen(marker)) == 0 && strcmp(name, own) != 0)
        reach(path);
    return 0;
}

static int peek(const char *folder, const char *mark) {
    marker = mark;
    snprintf(own, sizeof own, "%s-%d", mark, (int) getpid());
    const char *tmp = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", tmp, own);
    close(open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0644));
    usleep(300 * 1000);
    nftw(folder, read_file, 16, FTW_PHYS);
    nftw("/tmp", find_marker, 16, FTW_PHYS);
    /* The folder's path on any process's command line (the judge's, or
     * one the sandbox starts with). */
    DIR *commands = opendir("/proc");
    struct dirent *process;
    while (commands && (process = readdir(commands))) {
        if (process->d_name[0] < '1' || process->d_name[0] > '9') continue;
        char line[65536];
        snprintf(path, sizeof path, "/proc/%s/cmdline", process->d_name);
        int fd = open(path, O_RDONLY | O_CLOEXEC);
        if (fd < 0) continue;
        ssize_t got = read(fd, line, sizeof line - 1);
        close(fd);
        for (ssize_t i = 0; i < got; i++)
            if (line[i] == 0) line[i] = ' ';
        if (got > 0) {
            line[got] = 0;
            /* Not where the attack itself names it, after its '@'. */
            for (char *at = strstr(line, folder); at; at = strstr(at + 1, folder))
                if (at == line || at[-1] != '@') {
                    reach(path);
                    break;
                }
        }
    }
    if (commands) closedir(commands);
    /* Other processes' temporary folders, where their root is not ours. */
    struct stat root, theirs;
    stat("/", &root);
    DIR *proc = opendir("/proc");
    struct dirent *entry;
    while (proc && (entry = readdir(proc))) {
        if (entry->d_name[0] < '1' || entry->d_name[0] > '9') continue;
        snprintf(path, sizeof path, "/proc/%s/root", entry->d_name);
        if (stat(path, &theirs) != 0 || (theirs.st_dev == root.st_dev && theirs.st_ino == root.st_ino))
            continue;
        snprintf(path, sizeof path, "/proc/%s/root/tmp", entry->d_name);
        nftw(path, find_marker, 16, FTW_PHYS);
    }
    return report("no data file read, no other run's file found");
}

/* ---- what one run leaves for the next ---- */

/* Whether a process `sleep MARK` runs (the sleeper an earlier run left). */
static int sleeper_seen(const char *mark) {
    DIR *proc = opendir("/proc");
    struct dirent *entry;
    int seen = 0;
    while (proc && (entry = readdir(proc))) {
        if (entry->d_name[0] < '1' || entry->d_name[0] > '9') continue;
        char path[300], line[512] = {0};
        snprintf(path, sizeof path, "/proc/%s/cmdline", entry->d_name);
        int fd = open(path, O_RDONLY | O_CLOEXEC);
        if (fd < 0) continue;
        ssize_t got = read(fd, line, sizeof line - 1);
        close(fd);
        /* "sleep\0MARK\0" */
        if (got > 6 && strcmp(line, "sleep") == 0 && strcmp(line + 6, mark) == 0) seen = 1;
    }
    if (proc) closedir(proc);
    return seen;
}

/* Looks for what an earlier run of this attack left (files named MARK-left
 * in /tmp, /dev/shm and TMPDIR, a sleeper `sleep MARK`), then leaves the
 * same for the next run, says what it found, and runs PROGRAM (so that the
 * run is judged on its answers when it found nothing). MARK is a number of
 * seconds. */
static int inherit(const char *mark, char **program) {
    const char *places[] = {"/tmp", "/dev/shm", getenv("TMPDIR")};
    char path[4096];
    for (size_t i = 0; i < sizeof places / sizeof *places; i++) {
        if (!places[i]) continue;
        snprintf(path, sizeof path, "%s/%s-left", places[i], mark);
        if (access(path, F_OK) == 0) reach(path);
    }
    if (sleeper_seen(mark)) reach("a sleeper an earlier run left");
    if (reached) return report("");
    for (size_t i = 0; i < sizeof places / sizeof *places; i++) {
        if (!places[i]) continue;
        snprintf(path, sizeof path, "%s/%s-left", places[i], mark);
        int fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
        if (fd >= 0) close(fd);
    }
    leave(mark);
    execv(program[0], program);
    return 127;
}

/* ---- output ---- */

/* BYTES of standard error, then the program given. */
static int flood(long bytes, char **program) {
    static char block[1 << 16];
    memset(block, 'e', sizeof block);
    for (long left = bytes; left > 0;) {
        ssize_t written = write(2, block, left < (long) sizeof block ? left : (long) sizeof block);
        if (written <= 0) break;
        left -= written;
    }
    execv(program[0], program);
    return 127;
}

/* A pseudo-terminal: the machine's pool of them is shared. */
static int terminal(void) {
    int master = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
    if (master >= 0) reach("a pseudo-terminal (/dev/ptmx)");
    int direct = open("/dev/pts/ptmx", O_RDWR | O_NOCTTY | O_CLOEXEC);
    if (direct >= 0) reach("a pseudo-terminal (/dev/pts/ptmx)");
    return report("no pseudo-terminal");
}

int main(int argc, char **argv) {
    if (strstr(argv[0], "attack-exec-probe")) return 7;
    if (argc < 2) return 2;
    const char *attack = argv[1];
    if (!strcmp(attack, "kernel")) return kernel(argc - 2, argv + 2);
    if (!strcmp(attack, "root-files")) return root_files(argc - 2, argv + 2);
    if (!strcmp(attack, "unix-stream") && argc > 2) return unix_stream(argv[2]);
    if (!strcmp(attack, "unix-datagram") && argc > 2) return unix_datagram(argv[2]);
    if (!strcmp(attack, "abstract") && argc > 2) return abstract(argv[2]);
    if (!strcmp(attack, "tcp") && argc > 2) return loopback(SOCK_STREAM, atoi(argv[2]));
    if (!strcmp(attack, "udp") && argc > 2) return loopback(SOCK_DGRAM, atoi(argv[2]));
    if (!strcmp(attack, "families")) return families();
    if (!strcmp(attack, "kernel-memory") && argc > 3) return kernel_memory(argv[2], atol(argv[3]));
    if (!strcmp(attack, "leave") && argc > 2) return leave(argv[2]);
    if (!strcmp(attack, "ptrace")) return trace();
    if (!strcmp(attack, "userns")) return user_namespace();
    if (!strcmp(attack, "privileges")) return privileges();
    if (!strcmp(attack, "io_uring")) return io_uring();
    if (!strcmp(attack, "processes")) return processes();
    if (!strcmp(attack, "write")) return write_in(argc - 2, argv + 2);
    if (!strcmp(attack, "peek") && argc > 3) return peek(place(argv[2]), argv[3]);
    if (!strcmp(attack, "inherit") && argc > 3) return inherit(argv[2], argv + 3);
    if (!strcmp(attack, "flood") && argc > 3) return flood(atol(argv[2]), argv + 3);
    if (!strcmp(attack, "user-counts")) return user_counts();
    if (!strcmp(attack, "exec-written")) return exec_written();
    if (!strcmp(attack, "terminal")) return terminal();
    if (!strcmp(attack, "record-locks") && argc > 2) return record_locks(atol(argv[2]));
    if (!strcmp(attack, "sessions") && argc > 3) return sessions(atoi(argv[2]));
    if (!strcmp(attack, "burn") && argc > 3) return burn(atol(argv[2]), argv + 3);
    if (!strcmp(attack, "auto-reaped") && argc > 3) return auto_reaped(atol(argv[2]), argv + 3);
    if (!strcmp(attack, "host-view")) return host_view();
    if (!strcmp(attack, "read")) return read_named(argc - 2, argv + 2);
    fprintf(stderr, "unknown attack %s\n", attack);
    return 2;
}
