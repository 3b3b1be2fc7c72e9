// Linux process calls that Swift's Glibc module does not import: pidfd_open (glibc 2.36,
// Linux 5.3), used to notice that a parent process has exited.
#include <sys/pidfd.h>

// pipe2 (glibc declares it only under _GNU_SOURCE): a pipe whose ends are close-on-exec from the
// start, so that no child started meanwhile by another thread keeps them open.
extern int pipe2(int pipefd[2], int flags);

// malloc_trim (glibc's malloc.h): gives the free memory of every arena back to the system, after
// a burst of connections has come and gone.
#include <malloc.h>
