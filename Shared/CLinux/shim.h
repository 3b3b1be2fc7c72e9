// Linux process calls that Swift's Glibc module does not import: pidfd_open (glibc 2.36,
// Linux 5.3), used to notice that a parent process has exited.
#include <sys/pidfd.h>
