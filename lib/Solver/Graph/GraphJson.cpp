//===- GraphJson.cpp - Reading graphs from Checkmate-style JSON -----------===//

#include "ckpt/Solver/Graph/GraphJson.h"

#include <cmath>
#include <cstdio>
#include <unordered_map>

namespace ckpt {
namespace graph {

namespace {

std::string at(const json::Value &v) {
  if (v.line() == 0)
    return "";
  return std::to_string(v.line()) + ":" + std::to_string(v.column()) + ": ";
}

struct Reader {
  GraphReadResult res;
  bool failed = false;
  /// The graph index of each node id read so far.
  std::unordered_map<int64_t, int> byId;
  /// The layered graphs' source node ('graph': {'source_node'}), if any.
  int64_t sourceNode = -1;
  bool hasSourceNode = false;

  bool fail(const json::Value &where, const std::string &msg) {
    if (!failed) {
      res.error = at(where) + msg;
      failed = true;
    }
    return false;
  }

  // A non-negative finite number field.
  bool number(const json::Value &obj, const char *key, const std::string &what,
              double &out, bool required = true) {
    const json::Value *f = obj.find(key);
    if (!f) {
      if (!required)
        return true;
      return fail(obj, what + ": missing field '" + key + "'");
    }
    if (!f->isNumber() || !std::isfinite(f->asDouble()) || f->asDouble() < 0)
      return fail(*f,
                  what + ": field '" + key + "' must be a non-negative number");
    out = f->asDouble();
    return true;
  }

  bool integer(const json::Value &obj, const char *key, const std::string &what,
               int64_t &out) {
    const json::Value *f = obj.find(key);
    if (!f)
      return fail(obj, what + ": missing field '" + key + "'");
    if (!f->isInteger())
      return fail(*f, what + ": field '" + key + "' must be an integer");
    out = f->asInt64();
    return true;
  }

  bool boolean(const json::Value &obj, const char *key, const std::string &what,
               bool &out, bool required) {
    const json::Value *f = obj.find(key);
    if (!f) {
      if (required)
        return fail(obj, what + ": missing field '" + key + "'");
      return true;
    }
    if (!f->isBool())
      return fail(*f, what + ": field '" + key + "' must be true or false");
    out = f->asBool();
    return true;
  }

  /// Sets the graph's name from the optional 'graph' object; returns that
  /// object (null when absent).
  const json::Value *readName(const json::Value &doc) {
    const json::Value *meta = doc.find("graph");
    if (meta && meta->isObject())
      if (const json::Value *nm = meta->find("name"))
        if (nm->isString())
          res.graph.name = nm->asString();
    return meta;
  }

  /// The required array field KEY of DOC, or null after failing.
  const json::Value *array(const json::Value &doc, const char *key) {
    const json::Value *f = doc.find(key);
    if (!f) {
      fail(doc, std::string("missing field '") + key + "'");
      return nullptr;
    }
    if (!f->isArray()) {
      fail(*f, std::string("field '") + key + "' must be an array");
      return nullptr;
    }
    return f;
  }

  /// Reads the layered graphs' 'source_node' from the 'graph' object META.
  void readSourceNode(const json::Value *meta) {
    if (meta && meta->isObject())
      if (const json::Value *s = meta->find("source_node"))
        if (s->isInteger()) {
          sourceNode = s->asInt64();
          hasSourceNode = true;
        }
  }

  /// Reads a Checkmate node (id, name, backward, cost_cpu, cost_ram, input).
  bool checkmateNode(const json::Value &nv, std::string &what, Node &n) {
    if (!integer(nv, "id", what, n.origId))
      return false;
    what = "node " + std::to_string(n.origId);
    if (const json::Value *nm = nv.find("name")) {
      if (!nm->isString())
        return fail(*nm, what + ": field 'name' must be a string");
      n.name = nm->asString();
      what += " ('" + n.name + "')";
    } else {
      n.name = std::to_string(n.origId);
    }
    double ram = 0;
    if (!boolean(nv, "backward", what, n.backward, true) ||
        !number(nv, "cost_cpu", what, n.cost) ||
        !number(nv, "cost_ram", what, ram) ||
        !boolean(nv, "input", what, n.input, false))
      return false;
    n.bytes = static_cast<uint64_t>(ram);
    return true;
  }

  /// Reads a MOCCASIN layered node (name, duration, out_cost, input).
  bool layeredNode(const json::Value &nv, std::string &what, Node &n) {
    if (!integer(nv, "name", what, n.origId))
      return false;
    what = "node " + std::to_string(n.origId);
    n.name = std::to_string(n.origId);
    double out = 0;
    if (!number(nv, "duration", what, n.cost) ||
        !number(nv, "out_cost", what, out) ||
        !boolean(nv, "input", what, n.input, false))
      return false;
    n.bytes = static_cast<uint64_t>(out);
    if (hasSourceNode && n.origId == sourceNode)
      n.input = true;
    return true;
  }

  /// Reads node #I (either format) and adds it to the graph.
  bool node(const json::Value &nv, size_t i) {
    std::string what = "node #" + std::to_string(i);
    if (!nv.isObject())
      return fail(nv, what + " must be an object");
    Node n;
    bool layered =
        !nv.find("id") && nv.find("name") && nv.find("name")->isNumber();
    if (!(layered ? layeredNode(nv, what, n) : checkmateNode(nv, what, n)))
      return false;
    int64_t id = n.origId;
    if (byId.count(id))
      return fail(nv, what + ": duplicate node id " + std::to_string(id));
    byId[id] = res.graph.addNode(std::move(n));
    return true;
  }

  /// Reads link #I (source/target or 0/1) and adds its edge.
  bool link(const json::Value &lv, size_t i) {
    Graph &g = res.graph;
    std::string what = "link #" + std::to_string(i);
    if (!lv.isObject())
      return fail(lv, what + " must be an object");
    const char *sk = "source", *tk = "target";
    if (!lv.find("source") && lv.find("0")) {
      sk = "0";
      tk = "1";
    }
    int64_t s = 0, t = 0;
    if (!integer(lv, sk, what, s) || !integer(lv, tk, what, t))
      return false;
    auto is = byId.find(s), it = byId.find(t);
    if (is == byId.end())
      return fail(*lv.find(sk), what + ": dangling edge: source " +
                                    std::to_string(s) + " is not a node id");
    if (it == byId.end())
      return fail(*lv.find(tk), what + ": dangling edge: target " +
                                    std::to_string(t) + " is not a node id");
    if (is->second == it->second)
      return fail(lv, what + ": self-loop on node " + std::to_string(s) +
                          " ('" + g.node(is->second).name + "') is a cycle");
    g.addEdge(is->second, it->second);
    return true;
  }

  /// Finalizes the graph and fails when it has a cycle.
  bool acyclic() {
    Graph &g = res.graph;
    g.finalize();
    std::vector<int> order;
    int cyc = -1;
    if (!g.topologicalOrder(order, &cyc)) {
      const Node &n = g.node(cyc);
      return fail(json::Value(), "the graph has a cycle through node " +
                                     std::to_string(n.origId) + " ('" + n.name +
                                     "')");
    }
    return true;
  }
};

} // namespace

GraphReadResult graphFromJson(const json::Value &doc) {
  Reader r;
  if (!doc.isObject()) {
    r.fail(doc, "the graph must be a JSON object");
    return r.res;
  }
  const json::Value *meta = r.readName(doc);
  const json::Value *nodes = r.array(doc, "nodes");
  if (!nodes)
    return r.res;
  const json::Value *links = r.array(doc, "links");
  if (!links)
    return r.res;
  r.readSourceNode(meta);

  const auto &arr = nodes->asArray();
  for (size_t i = 0; i < arr.size(); ++i)
    if (!r.node(arr[i], i))
      return r.res;

  const auto &larr = links->asArray();
  for (size_t i = 0; i < larr.size(); ++i)
    if (!r.link(larr[i], i))
      return r.res;
  r.res.ok = r.acyclic();
  return r.res;
}

GraphReadResult parseGraphJson(std::string_view text) {
  json::ParseResult p = json::parse(text);
  if (!p.ok) {
    GraphReadResult r;
    r.error = p.error;
    return r;
  }
  return graphFromJson(p.value);
}

GraphReadResult readGraphFile(const std::string &path) {
  GraphReadResult r;
  std::string text;
  if (!json::readFile(path, text)) {
    r.error = path + ": cannot open file";
    return r;
  }
  r = parseGraphJson(text);
  if (!r.ok) {
    bool positioned =
        !r.error.empty() && r.error[0] >= '0' && r.error[0] <= '9';
    r.error = path + (positioned ? ":" : ": ") + r.error;
  }
  return r;
}

json::Value graphToJson(const Graph &g) {
  json::Value doc = json::Value::object();
  doc.set("directed", true);
  doc.set("multigraph", false);
  json::Value meta = json::Value::object();
  meta.set("name", g.name);
  doc.set("graph", std::move(meta));
  json::Value nodes = json::Value::array();
  for (int v = 0; v < g.numNodes(); ++v) {
    const Node &n = g.node(v);
    json::Value o = json::Value::object();
    o.set("id", n.origId);
    o.set("name", n.name);
    o.set("backward", n.backward);
    o.set("cost_cpu", n.cost);
    o.set("cost_ram", static_cast<int64_t>(n.bytes));
    if (n.input)
      o.set("input", true);
    nodes.push(std::move(o));
  }
  doc.set("nodes", std::move(nodes));
  json::Value links = json::Value::array();
  for (int v = 0; v < g.numNodes(); ++v)
    for (int w : g.succ(v)) {
      json::Value o = json::Value::object();
      o.set("source", g.node(v).origId);
      o.set("target", g.node(w).origId);
      links.push(std::move(o));
    }
  doc.set("links", std::move(links));
  return doc;
}

} // namespace graph
} // namespace ckpt
