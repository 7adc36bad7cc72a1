//===- GraphJson.cpp - Reading graphs from Checkmate-style JSON -----------===//

#include "ckpt/Solver/Graph/GraphJson.h"

#include "ckpt/Solver/Support/JsonReader.h"

#include <cmath>
#include <cstdio>
#include <unordered_map>

namespace ckpt {
namespace graph {

namespace {

using llvm::json::Object;
using llvm::json::Path;
using llvm::json::Value;

struct Reader {
  GraphReadResult res;
  JsonError error;
  /// The graph index of each node id read so far.
  std::unordered_map<int64_t, int> byId;
  /// The layered graphs' source node ('graph': {'source_node'}), if any.
  int64_t sourceNode = -1;
  bool hasSourceNode = false;

  bool fail(Path at, const std::string &msg) { return error.fail(at, msg); }

  /// The field `key` of the object `obj` (at path `at`), or null after
  /// failing when it is required.
  const Value *field(const Object &obj, Path at, const char *key,
                     const std::string &what, bool required = true) {
    const Value *f = obj.get(key);
    if (!f && required)
      fail(at, what + ": missing field '" + key + "'");
    return f;
  }

  // A non-negative finite number field.
  bool number(const Object &obj, Path at, const char *key,
              const std::string &what, double &out) {
    const Value *f = field(obj, at, key, what);
    if (!f)
      return false;
    std::optional<double> d = f->getAsNumber();
    if (!d || !std::isfinite(*d) || *d < 0)
      return fail(at.field(key),
                  what + ": field '" + key + "' must be a non-negative number");
    out = *d;
    return true;
  }

  /// A size in bytes: a non-negative number, exact when an integer.
  bool bytes(const Object &obj, Path at, const char *key,
             const std::string &what, uint64_t &out) {
    double d = 0;
    if (!number(obj, at, key, what, d))
      return false;
    std::optional<uint64_t> exact = obj.get(key)->getAsUINT64();
    out = exact ? *exact : static_cast<uint64_t>(d);
    return true;
  }

  bool integer(const Object &obj, Path at, const char *key,
               const std::string &what, int64_t &out) {
    const Value *f = field(obj, at, key, what);
    if (!f)
      return false;
    std::optional<int64_t> v = f->getAsInteger();
    if (!v)
      return fail(at.field(key),
                  what + ": field '" + key + "' must be an integer");
    out = *v;
    return true;
  }

  bool boolean(const Object &obj, Path at, const char *key,
               const std::string &what, bool &out, bool required) {
    const Value *f = field(obj, at, key, what, required);
    if (!f)
      return !required;
    std::optional<bool> b = f->getAsBoolean();
    if (!b)
      return fail(at.field(key),
                  what + ": field '" + key + "' must be true or false");
    out = *b;
    return true;
  }

  /// Sets the graph's name from the optional 'graph' object; returns that
  /// object (null when absent or not an object).
  const Object *readName(const Object &doc) {
    const Object *meta = doc.getObject("graph");
    if (meta)
      if (std::optional<llvm::StringRef> name = meta->getString("name"))
        res.graph.name = name->str();
    return meta;
  }

  /// The required array field KEY of DOC, or null after failing.
  const llvm::json::Array *array(const Object &doc, const char *key) {
    const Value *f = doc.get(key);
    if (!f) {
      fail(error.root(), std::string("missing field '") + key + "'");
      return nullptr;
    }
    if (!f->getAsArray())
      fail(error.root().field(key),
           std::string("field '") + key + "' must be an array");
    return f->getAsArray();
  }

  /// Reads the layered graphs' 'source_node' from the 'graph' object META.
  void readSourceNode(const Object *meta) {
    if (meta)
      if (std::optional<int64_t> s = meta->getInteger("source_node")) {
        sourceNode = *s;
        hasSourceNode = true;
      }
  }

  /// Reads a Checkmate node (id, name, backward, cost_cpu, cost_ram, input).
  bool checkmateNode(const Object &nv, Path at, std::string &what, Node &n) {
    if (!integer(nv, at, "id", what, n.origId))
      return false;
    what = "node " + std::to_string(n.origId);
    if (const Value *nm = nv.get("name")) {
      if (!nm->getAsString())
        return fail(at.field("name"), what + ": field 'name' must be a string");
      n.name = nm->getAsString()->str();
      what += " ('" + n.name + "')";
    } else {
      n.name = std::to_string(n.origId);
    }
    return boolean(nv, at, "backward", what, n.backward, true) &&
           number(nv, at, "cost_cpu", what, n.cost) &&
           bytes(nv, at, "cost_ram", what, n.bytes) &&
           boolean(nv, at, "input", what, n.input, false);
  }

  /// Reads a MOCCASIN layered node (name, duration, out_cost, input).
  bool layeredNode(const Object &nv, Path at, std::string &what, Node &n) {
    if (!integer(nv, at, "name", what, n.origId))
      return false;
    what = "node " + std::to_string(n.origId);
    n.name = std::to_string(n.origId);
    if (!number(nv, at, "duration", what, n.cost) ||
        !bytes(nv, at, "out_cost", what, n.bytes) ||
        !boolean(nv, at, "input", what, n.input, false))
      return false;
    if (hasSourceNode && n.origId == sourceNode)
      n.input = true;
    return true;
  }

  /// Reads node #I (either format) and adds it to the graph.
  bool node(const Value &nv, Path at, size_t i) {
    std::string what = "node #" + std::to_string(i);
    const Object *obj = nv.getAsObject();
    if (!obj)
      return fail(at, what + " must be an object");
    Node n;
    const Value *name = obj->get("name");
    bool layered = !obj->get("id") && name && name->getAsNumber();
    if (!(layered ? layeredNode(*obj, at, what, n)
                  : checkmateNode(*obj, at, what, n)))
      return false;
    int64_t id = n.origId;
    if (byId.count(id))
      return fail(at, what + ": duplicate node id " + std::to_string(id));
    byId[id] = res.graph.addNode(std::move(n));
    return true;
  }

  /// Reads link #I (source/target or 0/1) and adds its edge.
  bool link(const Value &lv, Path at, size_t i) {
    Graph &g = res.graph;
    std::string what = "link #" + std::to_string(i);
    const Object *obj = lv.getAsObject();
    if (!obj)
      return fail(at, what + " must be an object");
    const char *sk = "source", *tk = "target";
    if (!obj->get("source") && obj->get("0")) {
      sk = "0";
      tk = "1";
    }
    int64_t s = 0, t = 0;
    if (!integer(*obj, at, sk, what, s) || !integer(*obj, at, tk, what, t))
      return false;
    auto is = byId.find(s), it = byId.find(t);
    if (is == byId.end())
      return fail(at.field(sk), what + ": dangling edge: source " +
                                    std::to_string(s) + " is not a node id");
    if (it == byId.end())
      return fail(at.field(tk), what + ": dangling edge: target " +
                                    std::to_string(t) + " is not a node id");
    if (is->second == it->second)
      return fail(at, what + ": self-loop on node " + std::to_string(s) +
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
      return fail(error.root(), "the graph has a cycle through node " +
                                    std::to_string(n.origId) + " ('" + n.name +
                                    "')");
    }
    return true;
  }

  bool read(const Value &doc) {
    const Object *obj = doc.getAsObject();
    if (!obj)
      return fail(error.root(), "the graph must be a JSON object");
    const Object *meta = readName(*obj);
    const llvm::json::Array *nodes = array(*obj, "nodes");
    if (!nodes)
      return false;
    const llvm::json::Array *links = array(*obj, "links");
    if (!links)
      return false;
    readSourceNode(meta);
    Path nodesAt = error.root().field("nodes");
    for (size_t i = 0; i < nodes->size(); ++i)
      if (!node((*nodes)[i], nodesAt.index(i), i))
        return false;
    Path linksAt = error.root().field("links");
    for (size_t i = 0; i < links->size(); ++i)
      if (!link((*links)[i], linksAt.index(i), i))
        return false;
    return acyclic();
  }
};

} // namespace

GraphReadResult graphFromJson(const llvm::json::Value &doc) {
  Reader r;
  r.res.ok = r.read(doc);
  if (!r.res.ok)
    r.res.error = r.error.text();
  return std::move(r.res);
}

GraphReadResult parseGraphJson(std::string_view text) {
  GraphReadResult r;
  std::optional<llvm::json::Value> doc = parseJson(text, r.error);
  if (!doc)
    return r;
  return graphFromJson(*doc);
}

GraphReadResult readGraphFile(const std::string &path) {
  GraphReadResult r;
  std::string text;
  if (!readFile(path, text)) {
    r.error = path + ": cannot open file";
    return r;
  }
  r = parseGraphJson(text);
  if (!r.ok)
    r.error = withSource(path, r.error);
  return r;
}

void writeGraphJson(JsonWriter &json, const Graph &g) {
  json.object([&] {
    json.attribute("directed", true);
    json.attribute("multigraph", false);
    json.attributeObject("graph", [&] { json.attribute("name", g.name); });
    json.attributeArray("nodes", [&] {
      for (int v = 0; v < g.numNodes(); ++v) {
        const Node &n = g.node(v);
        json.object([&] {
          json.attribute("id", n.origId);
          json.attribute("name", n.name);
          json.attribute("backward", n.backward);
          json.attribute("cost_cpu", n.cost);
          json.attribute("cost_ram", static_cast<int64_t>(n.bytes));
          if (n.input)
            json.attribute("input", true);
        });
      }
    });
    json.attributeArray("links", [&] {
      for (int v = 0; v < g.numNodes(); ++v)
        for (int w : g.succ(v))
          json.object([&] {
            json.attribute("source", g.node(v).origId);
            json.attribute("target", g.node(w).origId);
          });
    });
  });
}

std::string graphToJson(const Graph &g, int indent) {
  return writeJson(indent, [&](JsonWriter &json) { writeGraphJson(json, g); });
}

} // namespace graph
} // namespace ckpt
