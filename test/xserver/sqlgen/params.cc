// The values of a prepared statement's `?`s, from an Execute's arguments:
// SQL expressions for MariaDB's EXECUTE ... USING (which takes expressions),
// rendered as the unprepared statement renders its literals, so a JSON
// octets value stays JSON and a limit or JSON text is checked the same way.
#include "test/xserver/sqlgen/detail.h"

namespace xserver::sqlgen {

namespace {

using detail::Scalar;

// The JSON text of s as SQL, or NULL for a NULL value.
std::string json_or_null(const detail::expr_writer& w, const Scalar& s) {
  if (s.type() == Scalar::V_NULL) return "NULL";
  std::string out;
  detail::expr_writer(w.ctx(), out).json_literal(s);
  return out;
}

void write_value(detail::expr_writer& w, param_kind k, const Scalar& s) {
  switch (k) {
  case param_kind::value:
    return w.scalar(s);
  case param_kind::json:
    return w.json_literal(s);
  case param_kind::json_compare:
    return w.put(json_or_null(w, s));
  case param_kind::rank_key:
  case param_kind::number_key:
  case param_kind::string_key: {
    const std::string j = json_or_null(w, s);
    if (j == "NULL") return w.put(j);
    return w.put(k == param_kind::rank_key     ? detail::rank_key(j)
                 : k == param_kind::number_key ? detail::number_key(j)
                                               : detail::string_key(j));
  }
  case param_kind::json_cast:
    detail::check_cast_to_json(s);
    return w.scalar(s);
  case param_kind::limit:
    detail::check_limit_value(s);
    return w.scalar(s);
  }
}

} // namespace

cdk::status check_args(const std::vector<param>& params, std::uint32_t args_offset,
                       std::size_t arg_count) {
  for (const param& p : params)
    if (p.arg >= arg_count)
      return cdk::error{detail::xerr::prepared_execute_argument_consistency, "HY000",
                        "There is no argument for statement placeholder at position: " +
                            std::to_string(p.arg + args_offset),
                        cdk::error_origin::server, false};
  return cdk::ok();
}

cdk::result<std::vector<std::string>> bind_params(const prepared_sql& stmt, const arg_list& args,
                                                  const options& opts) {
  if (auto st = check_args(stmt.params, stmt.args_offset, static_cast<std::size_t>(args.size()));
      !st.ok())
    return std::move(st).err();
  std::vector<std::string> values;
  values.reserve(stmt.params.size());
  const expr_context ctx{false, &args, "", opts};
  auto done = detail::guarded([&](std::string&) {
    for (const param& p : stmt.params) {
      std::string v;
      detail::expr_writer w(ctx, v);
      write_value(w, p.kind, args.Get(static_cast<int>(p.arg)));
      values.push_back(std::move(v));
    }
  });
  if (!done.ok()) return detail::update_error(std::move(done).err(), stmt.document_update);
  return values;
}

} // namespace xserver::sqlgen
