/* threadname: a name for the calling thread, as ps, top and /proc show it
 * ("fs-engine 2"): how bench/node.sh tells the dashboard's threads apart. */
#ifndef FLOPSCOPE_THREADNAME_H
#define FLOPSCOPE_THREADNAME_H

/* Names the calling thread "what" or, where n > 0, "what n" (cut to the 15
 * bytes Linux keeps). A name is a convenience: where it cannot be set, the
 * thread runs on unnamed. */
void thread_name(const char *what, unsigned n);

#endif
