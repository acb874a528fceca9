// Loaded with LD_PRELOAD: refuses (EAGAIN) the first thread that Mesa's OpenGL driver starts, as
// the system does where the limit on processes is reached, and says so on standard error, as it
// says that it is loaded. Every other thread starts as usual.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

__attribute__((constructor)) static void loaded(void) { fprintf(stderr, "probe: loaded\n"); }

typedef int (*start_fn)(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *);

// Whether code at `address` belongs to Mesa's driver: a *_dri.so, or libgallium in newer Mesa.
static int in_mesa(void *address) {
    Dl_info info;
    if (!dladdr(address, &info) || !info.dli_fname) return 0;
    return strstr(info.dli_fname, "_dri.so") != NULL || strstr(info.dli_fname, "libgallium") != NULL;
}

int pthread_create(pthread_t *thread, const pthread_attr_t *attr, void *(*start)(void *), void *arg) {
    static start_fn real;
    static int refused;
    if (!real) real = (start_fn)dlsym(RTLD_NEXT, "pthread_create");
    if (in_mesa(__builtin_return_address(0)) && !__atomic_exchange_n(&refused, 1, __ATOMIC_SEQ_CST)) {
        fprintf(stderr, "probe: refused the first thread of Mesa's driver\n");
        return EAGAIN;
    }
    return real(thread, attr, start, arg);
}
