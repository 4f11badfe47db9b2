#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>

#include "plugin_list.h"

// Asked on the first descriptor call rather than when the library loads: the Swift side it calls
// must not run before the loader has finished initialising the shared object.
static const char *own_path = "";
static int count = 0;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void ask(void) {
    Dl_info info;
    if (dladdr((void *)&plugin_list_count, &info) != 0 && info.dli_fname != NULL) own_path = info.dli_fname;
    count = dfkit_plugin_count(own_path);
}

const char *plugin_list_own_path(void) {
    pthread_once(&once, ask);
    return own_path;
}

int plugin_list_count(void) {
    pthread_once(&once, ask);
    return count;
}
