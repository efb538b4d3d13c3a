// libpq, PostgreSQL's own client library (Debian's libpq-dev, installed by scripts/install-deps.sh).
#include <postgresql/libpq-fe.h>
