// libpq loaded on first use: see include/CLibPQ.h for why.
//
// QUARRY_LIBPQ_FUNCTIONS lists each libpq function Quarry calls, as (return type, name, parameter
// list, argument list), through X, or V for those returning nothing, with the parameters exactly as libpq-fe.h declares them, so the compiler
// checks every forwarder against the real declaration. One table of pointers is filled once,
// under pthread_once, so the forwarders read it without further synchronisation. A call into
// libpq that is not listed here fails to link.
#include "CLibPQ.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define QUARRY_LIBPQ_FUNCTIONS(X, V) \
    X(PGconn *, PQconnectdbParams, (const char *const *keywords, const char *const *values, int expand_dbname), (keywords, values, expand_dbname)) \
    V(void, PQfinish, (PGconn *conn), (conn)) \
    X(ConnStatusType, PQstatus, (const PGconn *conn), (conn)) \
    X(char *, PQerrorMessage, (const PGconn *conn), (conn)) \
    X(int, PQsocket, (const PGconn *conn), (conn)) \
    X(int, PQbackendPID, (const PGconn *conn), (conn)) \
    X(PQnoticeProcessor, PQsetNoticeProcessor, (PGconn *conn, PQnoticeProcessor proc, void *arg), (conn, proc, arg)) \
    X(PGcancel *, PQgetCancel, (PGconn *conn), (conn)) \
    V(void, PQfreeCancel, (PGcancel *cancel), (cancel)) \
    X(int, PQcancel, (PGcancel *cancel, char *errbuf, int errbufsize), (cancel, errbuf, errbufsize)) \
    X(PGresult *, PQexec, (PGconn *conn, const char *query), (conn, query)) \
    X(PGresult *, PQexecParams, (PGconn *conn, const char *command, int nParams, const Oid *paramTypes, const char *const *paramValues, const int *paramLengths, const int *paramFormats, int resultFormat), (conn, command, nParams, paramTypes, paramValues, paramLengths, paramFormats, resultFormat)) \
    X(PGresult *, PQprepare, (PGconn *conn, const char *stmtName, const char *query, int nParams, const Oid *paramTypes), (conn, stmtName, query, nParams, paramTypes)) \
    X(PGresult *, PQexecPrepared, (PGconn *conn, const char *stmtName, int nParams, const char *const *paramValues, const int *paramLengths, const int *paramFormats, int resultFormat), (conn, stmtName, nParams, paramValues, paramLengths, paramFormats, resultFormat)) \
    X(int, PQsendQueryParams, (PGconn *conn, const char *command, int nParams, const Oid *paramTypes, const char *const *paramValues, const int *paramLengths, const int *paramFormats, int resultFormat), (conn, command, nParams, paramTypes, paramValues, paramLengths, paramFormats, resultFormat)) \
    X(PGresult *, PQgetResult, (PGconn *conn), (conn)) \
    X(int, PQsetSingleRowMode, (PGconn *conn), (conn)) \
    X(int, PQsetnonblocking, (PGconn *conn, int arg), (conn, arg)) \
    X(int, PQflush, (PGconn *conn), (conn)) \
    X(int, PQconsumeInput, (PGconn *conn), (conn)) \
    X(PGnotify *, PQnotifies, (PGconn *conn), (conn)) \
    X(int, PQenterPipelineMode, (PGconn *conn), (conn)) \
    X(int, PQexitPipelineMode, (PGconn *conn), (conn)) \
    X(int, PQpipelineSync, (PGconn *conn), (conn)) \
    X(int, PQputCopyData, (PGconn *conn, const char *buffer, int nbytes), (conn, buffer, nbytes)) \
    X(int, PQputCopyEnd, (PGconn *conn, const char *errormsg), (conn, errormsg)) \
    X(int, PQgetCopyData, (PGconn *conn, char **buffer, int async), (conn, buffer, async)) \
    X(ExecStatusType, PQresultStatus, (const PGresult *res), (res)) \
    X(char *, PQresultErrorMessage, (const PGresult *res), (res)) \
    X(char *, PQresultErrorField, (const PGresult *res, int fieldcode), (res, fieldcode)) \
    X(int, PQntuples, (const PGresult *res), (res)) \
    X(int, PQnfields, (const PGresult *res), (res)) \
    X(char *, PQfname, (const PGresult *res, int field_num), (res, field_num)) \
    X(Oid, PQftype, (const PGresult *res, int field_num), (res, field_num)) \
    X(char *, PQgetvalue, (const PGresult *res, int tup_num, int field_num), (res, tup_num, field_num)) \
    X(int, PQgetlength, (const PGresult *res, int tup_num, int field_num), (res, tup_num, field_num)) \
    X(int, PQgetisnull, (const PGresult *res, int tup_num, int field_num), (res, tup_num, field_num)) \
    X(char *, PQcmdTuples, (PGresult *res), (res)) \
    V(void, PQclear, (PGresult *res), (res)) \
    V(void, PQfreemem, (void *ptr), (ptr))

/// The resolved functions, filled once by load_libpq.
static struct {
#define QUARRY_LIBPQ_SLOT(type, name, parameters, arguments) type (*name) parameters;
    QUARRY_LIBPQ_FUNCTIONS(QUARRY_LIBPQ_SLOT, QUARRY_LIBPQ_SLOT)
#undef QUARRY_LIBPQ_SLOT
} libpq;

static pthread_once_t libpq_once = PTHREAD_ONCE_INIT;
/// NULL once libpq is loaded; otherwise what went wrong (set once, under libpq_once).
static const char *libpq_error = "libpq was not loaded";
static char libpq_error_text[512];

static void load_libpq(void) {
    // RTLD_LOCAL: libpq's symbols stay out of the global scope, so they never clash with the
    // forwarders below, which carry the same names.
    void *handle = dlopen("libpq.so.5", RTLD_NOW | RTLD_LOCAL);
    if (handle == NULL) {
        snprintf(libpq_error_text, sizeof libpq_error_text,
                 "PostgreSQL's client library could not be loaded (%s); install it with: apt-get install libpq5",
                 dlerror());
        libpq_error = libpq_error_text;
        return;
    }
#define QUARRY_LIBPQ_RESOLVE(type, name, parameters, arguments) \
    *(void **)(&libpq.name) = dlsym(handle, #name); \
    if (libpq.name == NULL) { \
        snprintf(libpq_error_text, sizeof libpq_error_text, \
                 "PostgreSQL's client library (libpq.so.5) has no %s: it is older than Quarry needs (PostgreSQL 14 or later)", #name); \
        libpq_error = libpq_error_text; \
        return; \
    }
    QUARRY_LIBPQ_FUNCTIONS(QUARRY_LIBPQ_RESOLVE, QUARRY_LIBPQ_RESOLVE)
#undef QUARRY_LIBPQ_RESOLVE
    libpq_error = NULL;
}

const char *quarry_libpq_load(void) {
    pthread_once(&libpq_once, load_libpq);
    return libpq_error;
}

/// Loads libpq for a forwarder; a call Quarry made without quarry_libpq_load succeeding first
/// cannot go on, so it ends the process with the reason.
static inline void require_libpq(void) {
    const char *error = quarry_libpq_load();
    if (error != NULL) {
        fprintf(stderr, "quarry: %s\n", error);
        abort();
    }
}

#define QUARRY_LIBPQ_FORWARD(type, name, parameters, arguments) \
    type name parameters { \
        require_libpq(); \
        return libpq.name arguments; \
    }
#define QUARRY_LIBPQ_FORWARD_VOID(type, name, parameters, arguments) \
    void name parameters { \
        require_libpq(); \
        libpq.name arguments; \
    }
QUARRY_LIBPQ_FUNCTIONS(QUARRY_LIBPQ_FORWARD, QUARRY_LIBPQ_FORWARD_VOID)
#undef QUARRY_LIBPQ_FORWARD
#undef QUARRY_LIBPQ_FORWARD_VOID
