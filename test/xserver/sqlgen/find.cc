// Crud.Find -> SELECT (X Plugin: find_statement_builder.cc).
#include "test/xserver/sqlgen/detail.h"

namespace xserver::sqlgen {
namespace detail {
namespace {

using Mysqlx::Crud::Find;
using Projections = google::protobuf::RepeatedPtrField<Mysqlx::Crud::Projection>;

// Grouped documents are built from this derived table's columns.
constexpr std::string_view k_derived = "`_DERIVED_TABLE_`";

const Expr& source_of(const Mysqlx::Crud::Projection& p) {
  if (!p.has_source()) missing_field("Mysqlx.Crud.Projection.source");
  return p.source();
}

void write_table_projection(expr_writer& w, const Projections& projection) {
  if (projection.empty()) return w.put("*");
  for (int i = 0; i < projection.size(); ++i) {
    const auto& item = projection.Get(i);
    if (i > 0) w.put(",");
    w.expr(source_of(item));
    if (item.has_alias()) {
      w.put(" AS ");
      append_identifier(w.out(), item.alias());
    }
  }
}

const std::string& alias_of(const Mysqlx::Crud::Projection& p) {
  if (!p.has_alias()) fail(xerr::proj_bad_key_name, "Invalid projection target name");
  return p.alias();
}

// JSON_OBJECT('alias', <value>, ...) AS doc; value is the source expression,
// or with grouping the derived table's column of that alias.
void write_document_object(expr_writer& w, const Projections& projection, bool from_derived) {
  w.put("JSON_OBJECT(");
  for (int i = 0; i < projection.size(); ++i) {
    const auto& item = projection.Get(i);
    if (i > 0) w.put(",");
    append_string(w.out(), alias_of(item));
    w.put(", ");
    if (from_derived) {
      w.put(k_derived);
      w.put(".");
      append_identifier(w.out(), item.alias());
    } else {
      w.expr(source_of(item));
    }
  }
  w.put(") AS doc");
}

void write_document_projection(expr_writer& w, const Projections& projection) {
  if (projection.empty()) return w.put("doc");
  const auto& first = projection.Get(0);
  if (projection.size() == 1 && !first.has_alias() && source_of(first).type() == Expr::OBJECT) {
    w.expr(first.source());
    return w.put(" AS doc");
  }
  write_document_object(w, projection, false);
}

// FROM .. WHERE .. GROUP BY .. HAVING .. ORDER BY .. LIMIT ..
void write_body(expr_writer& w, const Find& msg) {
  w.put(" FROM ");
  write_find_source(w.out(), msg.collection(), w.ctx().relational, w.ctx().opts);
  if (msg.has_criteria()) write_filter(w, msg.criteria());
  for (int i = 0; i < msg.grouping_size(); ++i) {
    w.put(i == 0 ? " GROUP BY " : ",");
    w.expr(msg.grouping(i));
  }
  if (msg.has_grouping_criteria()) {
    w.put(" HAVING ");
    w.condition(msg.grouping_criteria());
  }
  write_order(w, msg.order());
  write_limit(w, msg, false);
}

// MariaDB spells FOR SHARE as LOCK IN SHARE MODE; NOWAIT and SKIP LOCKED
// exist since 10.6. 5.7's protocol has no locking fields: ignored.
void write_locking(expr_writer& w, const Find& msg) {
  if (w.ctx().opts.emulate == flavor::mysql57) return;
  if (!msg.has_locking()) {
    if (msg.has_locking_options())
      fail(xerr::bad_locking, "Invalid \"find\" message, \"locking\" field is required when "
                              "\"locking_options\" is set.");
    return;
  }
  w.put(msg.locking() == Find::SHARED_LOCK ? " LOCK IN SHARE MODE" : " FOR UPDATE");
  if (!msg.has_locking_options()) return;
  w.put(msg.locking_options() == Find::NOWAIT ? " NOWAIT" : " SKIP LOCKED");
}

void write_find(std::string& sql, const Find& msg, const options& opts,
                std::vector<param>* params) {
  if (!msg.has_collection()) missing_field("Mysqlx.Crud.Find.collection");
  const expr_context ctx = context_of(msg, opts, params);
  const bool relational = ctx.relational;
  expr_writer w(ctx, sql);
  w.put("SELECT ");
  if (!relational && msg.grouping_size() > 0) {
    // Aggregates can't go inside JSON_OBJECT over the grouped rows
    // directly, so the groups are a derived table with one column per alias.
    if (msg.projection_size() == 0)
      fail(xerr::bad_projection, "Invalid empty projection list for grouping");
    write_document_object(w, msg.projection(), true);
    w.put(" FROM (SELECT ");
    write_table_projection(w, msg.projection());
    write_body(w, msg);
    w.put(") AS ");
    w.put(k_derived);
  } else {
    if (relational)
      write_table_projection(w, msg.projection());
    else
      write_document_projection(w, msg.projection());
    write_body(w, msg);
  }
  write_locking(w, msg);
}

} // namespace
} // namespace detail

cdk::result<std::string> render_find(const Mysqlx::Crud::Find& msg, const options& opts) {
  return detail::guarded([&](std::string& sql) { detail::write_find(sql, msg, opts, nullptr); });
}

cdk::result<prepared_sql> prepare_find(const Mysqlx::Crud::Find& msg, const options& opts) {
  return detail::guarded_prepared(msg.args_size(), false, [&](std::string& sql, auto* params) {
    detail::write_find(sql, msg, opts, params);
  });
}

} // namespace xserver::sqlgen
