//===- JsonTest.cpp - Tests of ckpt's JSON input and output helpers -------===//
//
// JsonReader.h (llvm::json::parse made strict, errors by line:column or by
// llvm::json::Path) and JsonWriter.h (llvm::json::OStream with the shortest
// round-trip numbers and one-line scalar arrays).
//
//===----------------------------------------------------------------------===//

#include "ckpt/Solver/Support/JsonReader.h"
#include "ckpt/Solver/Support/JsonWriter.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

using namespace ckpt;

namespace {

std::string errorOf(const std::string &text) {
  std::string error;
  EXPECT_FALSE(parseJson(text, error)) << text;
  return error;
}

} // namespace

TEST(Json, ParsesValues) {
  std::string error;
  std::optional<llvm::json::Value> v = parseJson(
      R"( {"a": [1, -2.5, 3e2, true, false, null], "b": {"c": "x\ny\u00e9"}} )",
      error);
  ASSERT_TRUE(v) << error;
  const llvm::json::Array *a = v->getAsObject()->getArray("a");
  ASSERT_TRUE(a);
  ASSERT_EQ(a->size(), 6u);
  EXPECT_EQ((*a)[0].getAsInteger(), 1);
  EXPECT_EQ((*a)[1].getAsNumber(), -2.5);
  EXPECT_FALSE((*a)[1].getAsInteger());
  EXPECT_EQ((*a)[2].getAsInteger(), 300);
  EXPECT_EQ((*a)[3].getAsBoolean(), true);
  EXPECT_TRUE((*a)[5].getAsNull());
  EXPECT_EQ(v->getAsObject()->getObject("b")->getString("c"), "x\ny\xc3\xa9");
  EXPECT_STREQ(kindName((*a)[4]), "boolean");
}

TEST(Json, BigIntegersAreExact) {
  std::string error;
  std::optional<llvm::json::Value> v = parseJson(
      "[9007199254740993, -9223372036854775808, 18446744073709551615]", error);
  ASSERT_TRUE(v) << error;
  const llvm::json::Array &a = *v->getAsArray();
  EXPECT_EQ(a[0].getAsInteger(), 9007199254740993LL);
  EXPECT_EQ(a[1].getAsInteger(), INT64_MIN);
  EXPECT_EQ(a[2].getAsUINT64(), UINT64_MAX);
  EXPECT_EQ(writeJson(0, [&](JsonWriter &json) { json.value(*v); }),
            "[9007199254740993,-9223372036854775808,18446744073709551615]");
}

TEST(Json, SurrogatePairs) {
  std::string error;
  std::optional<llvm::json::Value> v = parseJson(R"("\ud83d\ude00")", error);
  ASSERT_TRUE(v) << error;
  EXPECT_EQ(v->getAsString(), "\xf0\x9f\x98\x80");
}

// What the strict check adds to llvm::json::parse, and llvm::json's own
// errors, all with a 1-based line:column.
TEST(Json, ErrorsHaveLineAndColumn) {
  struct Case {
    const char *text;
    const char *expect;
  } cases[] = {
      // The strict check.
      {"[1, 2,]", "1:7: trailing comma in array"},
      {"{\"a\": 1,}", "1:9: trailing comma in object"},
      {"{\"a\": 1, \"a\": 2}", "1:10: duplicate key \"a\""},
      {"{\"a\": {\"b\": 1}, \"b\": 2, \"c\": {\"b\": 3, \"b\": 4}}",
       "1:39: duplicate key \"b\""},
      {"[01]", "1:2: leading zeros are not allowed in numbers"},
      {"[-01]", "1:2: leading zeros"},
      {"[1.]", "1:4: expected a digit after the decimal point"},
      {"[1e]", "1:4: expected a digit in the exponent"},
      {"[+1]", "1:2: expected a JSON value, found '+'"},
      {"[.5]", "1:2: expected a JSON value, found '.'"},
      {"[-]", "1:2: invalid JSON value (number?)"},
      {"[1e999]", "1:2: number out of range"},
      {"[-1e999]", "1:2: number out of range"},
      {"[\n 1,\n 01]", "3:2: leading zeros"},
      // llvm::json::parse.
      {"{\"a\": 1,\n \"b\": }", "2:7: invalid JSON value"},
      {"[NaN]", "1:2: invalid JSON value"},
      {"[Infinity]", "1:2: invalid JSON value"},
      {"\"abc", "1:5: unterminated string"},
      {"\"a\tb\"", "1:3: control character in string"},
      {"[1] x", "1:5: text after end of document"},
      {"", "1:1: unexpected EOF"},
      {"// c\n[]", "1:1: invalid JSON value"},
      {"/* c */ []", "1:1: invalid JSON value"},
      {"{\"a\" 1}", "1:6: expected : after object key"},
      {"[\"\\x\"]", "1:4: invalid escape sequence"},
      {"tru", "1:3: invalid JSON value (true?)"},
      {"[\"\xff\"]", "1:3: invalid UTF-8 sequence"},
      // The earlier of two errors; llvm::json's when both find the same.
      {"[tru, 01]", "1:5: invalid JSON value (true?)"},
      {"[01, tru]", "1:2: leading zeros"},
      {"{\"a\": 1,,}", "1:9: expected object key"},
      {"[1,\n]", "2:1: trailing comma in array"},
  };
  for (const Case &c : cases)
    EXPECT_EQ(errorOf(c.text).rfind(c.expect, 0), 0u)
        << "input: " << c.text << "\ngot: " << errorOf(c.text)
        << "\nwant: " << c.expect;
}

TEST(Json, AcceptsWhatRfc8259Allows) {
  std::string error;
  for (const char *text : {"0", "-0", "-0.5e-3", "1E+2", "[]", "{}", "\"\"",
                           " [ 1 , {\"a\" : [ ] } ] ", "{\"a\": {\"a\": 1}}",
                           "[{\"a\": 1}, {\"a\": 2}]", "{\"a\\\"\": 1}"})
    EXPECT_TRUE(parseJson(text, error)) << text << ": " << error;
}

TEST(Json, DeepNestingIsAnErrorNotACrash) {
  std::string deep(100000, '[');
  EXPECT_EQ(errorOf(deep), "1:513: nesting deeper than 512 levels");
  std::string objects;
  for (int i = 0; i < 100000; ++i)
    objects += "{\"a\":";
  EXPECT_NE(errorOf(objects).find("nesting deeper than 512 levels"),
            std::string::npos);
  // 512 levels are fine.
  std::string error;
  EXPECT_TRUE(parseJson(std::string(512, '[') + std::string(512, ']'), error))
      << error;
}

TEST(Json, ErrorsNameThePath) {
  JsonError error;
  EXPECT_FALSE(error.failed());
  llvm::json::Path nodes = error.root().field("nodes");
  EXPECT_FALSE(error.fail(nodes.index(3).field("cost"), "must be a number"));
  EXPECT_FALSE(error.fail(nodes, "a later error is not kept"));
  EXPECT_TRUE(error.failed());
  EXPECT_EQ(error.text(), "nodes[3].cost: must be a number");

  JsonError atRoot;
  atRoot.fail(atRoot.root(), "missing field 'uf'");
  EXPECT_EQ(atRoot.text(), "missing field 'uf'");

  // llvm::json's own deserializers report through the same root.
  JsonError mapped;
  std::string error2;
  std::optional<llvm::json::Value> doc = parseJson(R"({"id": "x"})", error2);
  ASSERT_TRUE(doc);
  llvm::json::ObjectMapper mapper(*doc, mapped.root());
  int64_t id = 0;
  EXPECT_FALSE(mapper && mapper.map("id", id));
  EXPECT_EQ(mapped.text(), "id: expected integer");

  EXPECT_EQ(withSource("f.json", "2:3: invalid JSON value"),
            "f.json:2:3: invalid JSON value");
  EXPECT_EQ(withSource("f.json", "id: expected integer"),
            "f.json: id: expected integer");
}

TEST(Json, WriterLayout) {
  auto write = [](int indent) {
    return writeJson(indent, [](JsonWriter &json) {
      json.object([&] {
        json.attribute("s", "q\"\\\n\x01");
        json.attribute("n", 0.1);
        json.attribute("i", int64_t(42));
        json.attribute("d", 12.0);
        json.attribute("b", true);
        json.attribute("none", std::optional<double>());
        json.attribute("some", std::optional<double>(2.5));
        json.attributeScalarArray("arr", std::vector<double>{1, 2.5});
        json.attributeScalarArray("names",
                                  std::vector<std::string>{"x", "y\"z"});
        json.attributeScalarArray("empty", std::vector<int>{});
        json.attributeArray("objects", [&] {
          json.object([&] { json.attribute("k", nullptr); });
          json.object([] {});
        });
        json.attributeObject("o", [] {});
      });
    });
  };
  EXPECT_EQ(write(0), R"({"s":"q\"\\\n\u0001","n":0.1,"i":42,"d":12,)"
                      R"("b":true,"none":null,"some":2.5,"arr":[1,2.5],)"
                      R"("names":["x","y\"z"],"empty":[],)"
                      R"("objects":[{"k":null},{}],"o":{}})");
  EXPECT_EQ(write(2), "{\n"
                      "  \"s\": \"q\\\"\\\\\\n\\u0001\",\n"
                      "  \"n\": 0.1,\n"
                      "  \"i\": 42,\n"
                      "  \"d\": 12,\n"
                      "  \"b\": true,\n"
                      "  \"none\": null,\n"
                      "  \"some\": 2.5,\n"
                      "  \"arr\": [1, 2.5],\n"
                      "  \"names\": [\"x\", \"y\\\"z\"],\n"
                      "  \"empty\": [],\n"
                      "  \"objects\": [\n"
                      "    {\n"
                      "      \"k\": null\n"
                      "    },\n"
                      "    {}\n"
                      "  ],\n"
                      "  \"o\": {}\n"
                      "}");
  std::string error;
  std::optional<llvm::json::Value> back = parseJson(write(2), error);
  ASSERT_TRUE(back) << error;
  EXPECT_EQ(back->getAsObject()->getNumber("n"), 0.1);
}

TEST(Json, FormatNumber) {
  EXPECT_EQ(formatNumber(3), "3");
  EXPECT_EQ(formatNumber(-0.0), "0");
  EXPECT_EQ(formatNumber(-7), "-7");
  EXPECT_EQ(formatNumber(0.1 + 0.2), "0.30000000000000004");
  EXPECT_EQ(formatNumber(1e300), "1e+300");
  EXPECT_EQ(formatNumber(9007199254740992.0), "9007199254740992");
  EXPECT_EQ(formatNumber(1.0 / 0.0), "null");
  EXPECT_EQ(formatNumber(std::nan("")), "null");
}
