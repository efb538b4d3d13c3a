// libpq, PostgreSQL's own client library (Debian's libpq-dev, installed by scripts/install-deps.sh),
// loaded when first used rather than when Quarry starts.
//
// libpq and the libraries it needs (OpenSSL, GnuTLS, Kerberos, LDAP, SASL: about twenty) take
// 4-5 ms to load and initialise, which every `quarry` launch paid, PostgreSQL or not. Quarry's
// binaries therefore do not link libpq: LibPQLoader.c defines each libpq function Quarry calls
// with libpq-fe.h's own signature, and the first call opens libpq.so.5 (dlopen) and forwards.
#ifndef QUARRY_CLIBPQ_H
#define QUARRY_CLIBPQ_H
#include <postgresql/libpq-fe.h>

/// Opens libpq.so.5 once (later calls return the first call's result) and resolves every
/// function Quarry uses from it. Returns NULL when libpq is ready, or a message saying what is
/// missing (the library, or a function in it). Call it before the first libpq call: a libpq
/// function called while libpq cannot be loaded ends the process with that message.
const char *quarry_libpq_load(void);

#endif
