"""Checkmate training graphs (node-link JSON) to a ckpt training step.

Usage::

    python3 -m ckpt.import_graph GRAPH.json [-o OUT.mlir] [--name NAME]
                                 [--loss NODE] [--time-scale S]
    ckpt-opt OUT.mlir --ckpt-wrap-step --ckpt-plan=budget=70%

The input is a graph in one of the formats the C++ reader
(``lib/Solver/Graph/GraphJson.cpp``, ``ckpt-graph``, ``ckpt.Graph.from_json``)
accepts:

* Checkmate (networkx node-link, e.g. ``/work/shared/graphs/checkmate``):
  ``nodes[]`` with ``id`` (integer), ``name`` (string, optional),
  ``backward`` (bool), ``cost_cpu`` and ``cost_ram`` (non-negative numbers),
  ``input`` (bool, optional); ``links[]`` with ``source`` -> ``target``
  (the target reads the source's output);
* MOCCASIN's random layered graphs: ``nodes[]`` identified by an integer
  ``name`` with ``duration`` and ``out_cost``; ``links[]`` as
  ``{"0": source, "1": target}``; ``graph.source_node`` is an input.

The output is one ``func.func @<name>_step`` with ``ckpt.loss = 0``, which
``ckpt-wrap-step`` turns into a ``ckpt.step``:

* every graph node becomes one ``ckpt.opaque "<node name>"`` op, in a
  topological order (the file's order when it is one), whose operands are
  the node's predecessors (in the order of the links) and whose result is
  ``tensor<Nxi8>``, N = the node's memory in bytes (``cost_ram`` /
  ``out_cost``: the size of the node's output tensor, in bytes);
* its ``#ckpt.cost`` has ``time`` = ``cost_cpu`` (``duration``) x
  ``time_scale`` seconds. The graphs do not document the unit of cost_cpu
  (Checkmate profiled some graphs and counted operations in others; the
  values of one graph are comparable with each other, not across graphs):
  with the default scale 1 the planner's times are those numbers, taken as
  relative times. ``flops`` = 0 (unknown) and ``bytes`` = the bytes of the
  operands and results (what the cost model's opaque estimate counts);
* nodes marked ``"input": true`` are not ops but arguments of the function
  (graph inputs: outside the budget, never recomputed), typed as their
  result would be;
* nodes with no predecessor (the first layer, which reads the batch the
  graph does not model) read one placeholder argument ``%data :
  tensor<0xi8>``, so that the planner sees them compute from an input (an
  op that reads nothing would be taken for a constant);
* the loss: the node named by ``loss`` (``--loss``), else the forward node
  that ends the forward pass (the only node flagged forward, not an input,
  that no forward node reads, when every other forward node reaches it: the
  one Checkmate's ``Loss`` node reads), so that ckpt's forward ops (the loss
  and what it depends on) are exactly the nodes the graph flags forward, as
  ``ckpt-sched`` takes them; else the only backward node whose predecessors
  are all forward nodes; else, in a graph with no backward node, the only
  node with no successor (``graph.target_node`` when given). Its op has a
  second result, the loss value ``tensor<f32>`` (4 more bytes), which the
  function returns first; the node's own ``tensor<Nxi8>`` is what its
  successors read;
* the function returns the loss, then, in node order, every other node that
  no node reads (the backward outputs: gradients), so that nothing is dead
  code.

Invalid input (bad JSON, a missing or mistyped field, a dangling link, a
cycle, no loss) raises ``ValueError`` with a message that names the field or
the node; the command line prints it and exits with status 1.
"""

import argparse
import heapq
import json
import os
import re
import sys

__all__ = ["Graph", "Node", "parse_graph", "graph_to_mlir", "import_graph", "main"]


class Node:
    """One graph node as the importer reads it."""

    __slots__ = ("index", "id", "name", "backward", "cost", "bytes", "input")

    def __init__(self, index, id, name, backward, cost, bytes, input):
        self.index = index        # position in nodes[]
        self.id = id              # the file's node id
        self.name = name
        self.backward = backward
        self.cost = cost          # cost_cpu / duration
        self.bytes = bytes        # cost_ram / out_cost, an int
        self.input = input

    def describe(self):
        if self.name != str(self.id):
            return "node %d ('%s')" % (self.id, self.name)
        return "node %d" % self.id


class Graph:
    """Nodes in file order, predecessor and successor lists (node indices)."""

    def __init__(self, name, nodes, preds, succs, target=None):
        self.name = name
        self.nodes = nodes
        self.preds = preds
        self.succs = succs
        self.target = target      # index of graph.target_node, if any


def _is_int(value):
    return isinstance(value, int) and not isinstance(value, bool)


def _number(obj, key, what, required=True):
    if key not in obj:
        if not required:
            return None
        raise ValueError("%s: missing field '%s'" % (what, key))
    value = obj[key]
    if (isinstance(value, bool) or not isinstance(value, (int, float))
            or value != value or value in (float("inf"), float("-inf"))
            or value < 0):
        raise ValueError("%s: field '%s' must be a non-negative number"
                         % (what, key))
    return value


def _integer(obj, key, what):
    if key not in obj:
        raise ValueError("%s: missing field '%s'" % (what, key))
    if not _is_int(obj[key]):
        raise ValueError("%s: field '%s' must be an integer" % (what, key))
    return obj[key]


def _boolean(obj, key, what, required):
    if key not in obj:
        if required:
            raise ValueError("%s: missing field '%s'" % (what, key))
        return False
    if not isinstance(obj[key], bool):
        raise ValueError("%s: field '%s' must be true or false" % (what, key))
    return obj[key]


def _bytes(value, what, key):
    if isinstance(value, float) and not value.is_integer():
        raise ValueError("%s: field '%s' must be a whole number of bytes"
                         % (what, key))
    return int(value)


def parse_graph(doc):
    """Checks a decoded JSON document and returns a :class:`Graph`."""
    if not isinstance(doc, dict):
        raise ValueError("the graph must be a JSON object")
    meta = doc.get("graph")
    meta = meta if isinstance(meta, dict) else {}
    name = meta.get("name") if isinstance(meta.get("name"), str) else None
    if "nodes" not in doc:
        raise ValueError("missing field 'nodes'")
    if not isinstance(doc["nodes"], list):
        raise ValueError("field 'nodes' must be an array")
    if "links" not in doc:
        raise ValueError("missing field 'links'")
    if not isinstance(doc["links"], list):
        raise ValueError("field 'links' must be an array")
    source_node = meta.get("source_node")
    source_node = source_node if _is_int(source_node) else None
    target_node = meta.get("target_node")
    target_node = target_node if _is_int(target_node) else None

    nodes = []
    by_id = {}
    for i, nv in enumerate(doc["nodes"]):
        what = "node #%d" % i
        if not isinstance(nv, dict):
            raise ValueError(what + " must be an object")
        layered = "id" not in nv and _is_int(nv.get("name"))
        if not layered:
            node_id = _integer(nv, "id", what)
            what = "node %d" % node_id
            node_name = str(node_id)
            if "name" in nv:
                if not isinstance(nv["name"], str):
                    raise ValueError(what + ": field 'name' must be a string")
                node_name = nv["name"]
                what += " ('%s')" % node_name
            backward = _boolean(nv, "backward", what, True)
            cost = _number(nv, "cost_cpu", what)
            size = _bytes(_number(nv, "cost_ram", what), what, "cost_ram")
            is_input = _boolean(nv, "input", what, False)
        else:
            node_id = nv["name"]
            what = "node %d" % node_id
            node_name = str(node_id)
            backward = False
            cost = _number(nv, "duration", what)
            size = _bytes(_number(nv, "out_cost", what), what, "out_cost")
            is_input = _boolean(nv, "input", what, False)
            if source_node is not None and node_id == source_node:
                is_input = True
        if node_id in by_id:
            raise ValueError("%s: duplicate node id %d" % (what, node_id))
        by_id[node_id] = len(nodes)
        nodes.append(Node(len(nodes), node_id, node_name, backward, cost,
                          size, is_input))
    if not nodes:
        raise ValueError("field 'nodes' is empty: the graph has no node")

    preds = [[] for _ in nodes]
    succs = [[] for _ in nodes]
    for i, lv in enumerate(doc["links"]):
        what = "link #%d" % i
        if not isinstance(lv, dict):
            raise ValueError(what + " must be an object")
        sk, tk = "source", "target"
        if "source" not in lv and "0" in lv:
            sk, tk = "0", "1"
        s = _integer(lv, sk, what)
        t = _integer(lv, tk, what)
        if s not in by_id:
            raise ValueError("%s: dangling edge: source %d is not a node id"
                             % (what, s))
        if t not in by_id:
            raise ValueError("%s: dangling edge: target %d is not a node id"
                             % (what, t))
        u, v = by_id[s], by_id[t]
        if u == v:
            raise ValueError("%s: self-loop on %s is a cycle"
                             % (what, nodes[u].describe()))
        if u not in preds[v]:
            preds[v].append(u)
            succs[u].append(v)
    target = by_id.get(target_node) if target_node is not None else None
    return Graph(name, nodes, preds, succs, target)


def topological_order(graph):
    """Node indices in a topological order, the smallest index first among
    the ready ones (the file's order when it is topological). Raises
    ValueError naming a node of a cycle."""
    indegree = [len(p) for p in graph.preds]
    ready = [i for i, d in enumerate(indegree) if d == 0]
    heapq.heapify(ready)
    order = []
    while ready:
        u = heapq.heappop(ready)
        order.append(u)
        for v in graph.succs[u]:
            indegree[v] -= 1
            if indegree[v] == 0:
                heapq.heappush(ready, v)
    if len(order) != len(graph.nodes):
        # Walk predecessors inside the unordered part until a node repeats:
        # that node lies on a cycle.
        left = {i for i, d in enumerate(indegree) if d > 0}
        v = min(left)
        seen = set()
        while v not in seen:
            seen.add(v)
            v = next(u for u in graph.preds[v] if u in left)
        raise ValueError("the graph has a cycle through %s"
                         % graph.nodes[v].describe())
    return order


def _forward_sink(graph):
    """The forward node that ends the forward pass, if the flags tell one:
    the only forward node (not an input) that no forward node reads, when
    every other forward node reaches it; else None."""
    nodes = graph.nodes
    forward = [n.index for n in nodes if not n.backward and not n.input]
    if not forward or len(forward) == len(nodes):
        return None
    sinks = [v for v in forward
             if not any(not nodes[s].backward for s in graph.succs[v])]
    if len(sinks) != 1:
        return None
    reached, stack = {sinks[0]}, [sinks[0]]
    while stack:
        for p in graph.preds[stack.pop()]:
            if p not in reached:
                reached.add(p)
                stack.append(p)
    return sinks[0] if all(v in reached for v in forward) else None


def find_loss(graph, loss=None):
    """Index of the loss node (see the module docstring for the rule)."""
    nodes = graph.nodes
    if loss is not None:
        matches = [n.index for n in nodes if n.name == loss]
        if not matches:
            raise ValueError("--loss: no node is named '%s'" % loss)
        if len(matches) > 1:
            raise ValueError("--loss: %d nodes are named '%s'"
                             % (len(matches), loss))
        index = matches[0]
    elif (sink := _forward_sink(graph)) is not None:
        index = sink
    elif any(n.backward for n in nodes):
        candidates = [n.index for n in nodes if n.backward and graph.preds[n.index]
                      and not any(nodes[p].backward for p in graph.preds[n.index])]
        if len(candidates) != 1:
            listed = ", ".join(nodes[i].describe() for i in candidates[:5])
            raise ValueError(
                "cannot tell the loss node: %d backward nodes read only forward "
                "nodes (the loss is the only one)%s; name it with --loss"
                % (len(candidates), ": " + listed if listed else ""))
        index = candidates[0]
    elif graph.target is not None:
        index = graph.target
    else:
        sinks = [n.index for n in nodes if not graph.succs[n.index]]
        if len(sinks) != 1:
            raise ValueError("cannot tell the loss node: the graph has no "
                             "backward node and %d nodes without successors; "
                             "name it with --loss" % len(sinks))
        index = sinks[0]
    if nodes[index].input:
        raise ValueError("the loss, %s, is a graph input ('input': true)"
                         % nodes[index].describe())
    return index


def _float(value):
    """A float literal MLIR parses (it needs a '.' before an exponent)."""
    text = repr(float(value))
    if "e" in text and "." not in text:
        mantissa, exponent = text.split("e")
        text = mantissa + ".0e" + exponent
    return text


def _string(text):
    """An MLIR string literal."""
    out = []
    for ch in text:
        if ch in '"\\':
            out.append("\\" + ch)
        elif " " <= ch <= "~":
            out.append(ch)
        else:
            out.extend("\\%02X" % b for b in ch.encode("utf-8"))
    return '"' + "".join(out) + '"'


def symbol_name(text):
    """`text` as a bare MLIR identifier: letters, digits and '_'."""
    name = re.sub(r"[^A-Za-z0-9_]+", "_", text).strip("_")
    if not name:
        name = "graph"
    if name[0].isdigit():
        name = "g" + name
    return name


def graph_to_mlir(graph, name="graph", loss=None, time_scale=1.0, source=None):
    """The MLIR text of the training step of `graph` (a :class:`Graph` or a
    decoded JSON document); see the module docstring for the mapping."""
    if not isinstance(graph, Graph):
        graph = parse_graph(graph)
    if (isinstance(time_scale, bool) or not isinstance(time_scale, (int, float))
            or not time_scale >= 0 or time_scale == float("inf")):
        raise ValueError("time_scale must be a non-negative number")
    nodes = graph.nodes
    order = topological_order(graph)
    loss_index = find_loss(graph, loss)

    def tensor(n):
        return "tensor<%dxi8>" % nodes[n].bytes

    value = {}          # node index -> SSA value of its tensor
    args = []           # (ssa name, type)
    for n in order:
        if nodes[n].input:
            value[n] = "%%in%d" % nodes[n].id
            args.append((value[n], tensor(n)))
    needs_data = any(not graph.preds[n] and not nodes[n].input for n in order)
    if needs_data:
        args.insert(0, ("%data", "tensor<0xi8>"))

    body = []
    for n in order:
        node = nodes[n]
        if node.input:
            continue
        if graph.preds[n]:
            operands = [value[p] for p in graph.preds[n]]
            operand_types = [tensor(p) for p in graph.preds[n]]
            in_bytes = sum(nodes[p].bytes for p in graph.preds[n])
        else:
            operands, operand_types, in_bytes = ["%data"], ["tensor<0xi8>"], 0
        ssa = "%%n%d" % node.id
        if n == loss_index:
            results = "(%s, tensor<f32>)" % tensor(n)
            out_bytes = node.bytes + 4
            value[n] = ssa + "#0"
            ssa += ":2"
        else:
            results = tensor(n)
            out_bytes = node.bytes
            value[n] = ssa
        cost = "#ckpt.cost<flops = 0, bytes = %d, time = %s>" % (
            in_bytes + out_bytes, _float(node.cost * time_scale))
        body.append("  %s = ckpt.opaque %s(%s) {ckpt.cost = %s} : (%s) -> %s"
                    % (ssa, _string(node.name), ", ".join(operands), cost,
                       ", ".join(operand_types), results))

    returned = [("%%n%d#1" % nodes[loss_index].id, "tensor<f32>")]
    for n in range(len(nodes)):
        if n != loss_index and not graph.succs[n] and not nodes[n].input:
            returned.append((value[n], tensor(n)))

    backward = sum(1 for n in nodes if n.backward)
    header = ["// Imported by ckpt.import_graph from %s: %d nodes (%d backward), "
              "%d links." % (source or "a graph", len(nodes), backward,
                             sum(len(p) for p in graph.preds)),
              "// Loss: %s. Result sizes: the node's memory in bytes; ckpt.cost "
              "time = the node's cost x %s s." % (nodes[loss_index].describe(),
                                                 _float(time_scale))]
    signature = ", ".join("%s: %s" % a for a in args)
    result_types = ", ".join(t for _, t in returned)
    lines = header + [
        "func.func @%s_step(%s) -> (%s) attributes {ckpt.loss = 0 : i64} {"
        % (name, signature, result_types)]
    lines += body
    lines.append("  return %s : %s" % (", ".join(v for v, _ in returned),
                                       result_types))
    lines.append("}")
    return "\n".join(lines) + "\n"


def import_graph(path, name=None, loss=None, time_scale=1.0):
    """Reads the graph file at `path` ('-': standard input) and returns the
    MLIR text of its training step. `name` defaults to the file name without
    its extension (made a valid identifier)."""
    if path == "-":
        text = sys.stdin.read()
        source = "<stdin>"
    else:
        with open(path, encoding="utf-8") as f:
            text = f.read()
        source = os.path.basename(path)
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as e:
        raise ValueError("%s:%d:%d: not valid JSON: %s"
                         % (source, e.lineno, e.colno, e.msg)) from None
    if name is None:
        name = os.path.splitext(source)[0] if path != "-" else "graph"
    try:
        return graph_to_mlir(doc, symbol_name(name), loss, time_scale, source)
    except ValueError as e:
        raise ValueError("%s: %s" % (source, e)) from None


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog="python3 -m ckpt.import_graph",
        description="Turn a Checkmate training graph (node-link JSON) into a "
                    "func.func training step of ckpt.opaque ops, ready for "
                    "ckpt-opt --ckpt-wrap-step --ckpt-plan.")
    parser.add_argument("graph", help="the graph JSON file ('-': standard input)")
    parser.add_argument("-o", "--output", default="-",
                        help="output MLIR file (default: standard output)")
    parser.add_argument("--name", help="the function is @<NAME>_step (default: "
                        "the file name, as an identifier)")
    parser.add_argument("--loss", help="name of the loss node (default: the "
                        "only backward node that reads only forward nodes)")
    parser.add_argument("--time-scale", type=float, default=1.0,
                        help="seconds per unit of cost_cpu (default 1)")
    args = parser.parse_args(argv)
    try:
        text = import_graph(args.graph, args.name, args.loss, args.time_scale)
        if args.output == "-":
            sys.stdout.write(text)
        else:
            with open(args.output, "w", encoding="utf-8") as f:
                f.write(text)
    except (ValueError, OSError) as e:
        print("ckpt.import_graph: error: %s" % e, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
