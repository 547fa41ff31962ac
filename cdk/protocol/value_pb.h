// Private to cdk/protocol: conversions between value and the generated
// Mysqlx.Datatypes messages.
#pragma once

#include "cdk/protocol/value.h"
#include "mysqlx_datatypes.pb.h"

namespace cdk::protocol {

value from_scalar(const Mysqlx::Datatypes::Scalar& s);
value from_any(const Mysqlx::Datatypes::Any& a);
void to_scalar(const value& v, Mysqlx::Datatypes::Scalar& out);
void to_any(const value& v, Mysqlx::Datatypes::Any& out);

} // namespace cdk::protocol
