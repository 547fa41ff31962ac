// describeDocId(): the public face of cdk::docid::classify().
#include "cdk/docid/decode.h"

#include <mysqlx/docid.h>

MYSQLX_NAMESPACE_BEGIN

DocIdInfo describeDocId(std::string_view id) {
  const cdk::docid::id_info info = cdk::docid::classify(id);
  DocIdInfo out;
  switch (info.format) {
  case cdk::docid::id_format::server:
    out.format = DocIdFormat::SERVER;
    out.prefix = info.server.prefix;
    out.serverStartTime = info.server.start_time;
    out.serial = info.server.serial;
    break;
  case cdk::docid::id_format::local:
    out.format = DocIdFormat::CLIENT;
    out.unixMillis = info.local.unix_ms;
    out.counter = info.local.counter;
    break;
  case cdk::docid::id_format::opaque:
    out.format = DocIdFormat::OPAQUE;
    if (info.why_opaque) out.whyOpaque = info.why_opaque;
    break;
  }
  return out;
}

MYSQLX_NAMESPACE_END
