#include <jack/jack.h>

// jack_client_open is variadic (a server name may follow), which Swift cannot call; libjack
// reads the server name from JACK_DEFAULT_SERVER when none is given.
static inline jack_client_t *dfkit_jack_client_open(const char *name, jack_options_t options, jack_status_t *status) {
    return jack_client_open(name, options, status);
}
