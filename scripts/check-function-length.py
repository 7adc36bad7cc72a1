#!/usr/bin/env python3
"""Checks that no function is longer than a limit (CONTRIBUTING.md: 120 lines).

    check-function-length.py [--max-lines=N] [PATH ...]

A function's length is its lines from the signature to the closing brace
(C++, measured by lizard, as `lizard -L N` does) or from `def` to its last
line (Python, by the ast module); decorators and comments above it do not
count. PATH is a file or a directory searched for *.cpp, *.h and *.py; by
default lib/ and python/ckpt/ of the source tree. Prints one line per
function over the limit (file:line: name, length) and exits 1 if there is
any, 2 on bad usage.
"""
import argparse
import ast
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CPP = (".cpp", ".h")


def files_under(paths):
    for path in paths:
        if os.path.isfile(path):
            yield path
            continue
        if not os.path.isdir(path):
            sys.exit(f"check-function-length: error: no such file or directory: {path}")
        for dirpath, dirnames, filenames in os.walk(path):
            dirnames[:] = sorted(d for d in dirnames if d != "__pycache__")
            for name in sorted(filenames):
                if name.endswith(CPP + (".py",)):
                    yield os.path.join(dirpath, name)


def python_functions(path):
    with open(path, encoding="utf-8") as f:
        tree = ast.parse(f.read(), filename=path)
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            yield node.name, node.lineno, node.end_lineno - node.lineno + 1


def cpp_functions(path):
    import lizard  # in the environment scripts/setup.sh makes

    for function in lizard.analyze_file(path).function_list:
        yield function.name, function.start_line, function.length


def main(argv):
    parser = argparse.ArgumentParser(
        description="Lists the functions longer than a limit.")
    parser.add_argument("--max-lines", type=int, default=120)
    parser.add_argument("paths", nargs="*")
    args = parser.parse_args(argv)
    if args.max_lines < 1:
        parser.error("--max-lines must be positive")
    paths = args.paths or [os.path.join(ROOT, "lib"), os.path.join(ROOT, "python", "ckpt")]
    over = 0
    checked = 0
    for path in files_under(paths):
        functions = python_functions if path.endswith(".py") else cpp_functions
        for name, line, length in functions(path):
            checked += 1
            if length > args.max_lines:
                over += 1
                print(f"{os.path.relpath(path, ROOT)}:{line}: {name} is {length} lines "
                      f"(limit {args.max_lines})")
    print(f"{checked} functions checked, {over} over {args.max_lines} lines")
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
