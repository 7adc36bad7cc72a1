//===- JsonTest.cpp - Tests of the strict JSON reader/writer --------------===//

#include "ckpt/Solver/Support/Json.h"

#include <gtest/gtest.h>

using namespace ckpt;

TEST(Json, ParsesValues) {
  json::ParseResult r = json::parse(
      R"( {"a": [1, -2.5, 3e2, true, false, null], "b": {"c": "x\ny\u00e9"}} )");
  ASSERT_TRUE(r.ok) << r.error;
  const json::Value &v = r.value;
  ASSERT_TRUE(v.isObject());
  const json::Value *a = v.find("a");
  ASSERT_TRUE(a && a->isArray());
  ASSERT_EQ(a->asArray().size(), 6u);
  EXPECT_TRUE(a->asArray()[0].isInteger());
  EXPECT_EQ(a->asArray()[0].asInt64(), 1);
  EXPECT_EQ(a->asArray()[1].asDouble(), -2.5);
  EXPECT_FALSE(a->asArray()[1].isInteger());
  EXPECT_TRUE(a->asArray()[2].isInteger()); // 300
  EXPECT_EQ(a->asArray()[2].asInt64(), 300);
  EXPECT_TRUE(a->asArray()[3].asBool());
  EXPECT_TRUE(a->asArray()[5].isNull());
  EXPECT_EQ(v.find("b")->find("c")->asString(), "x\ny\xc3\xa9");
  EXPECT_EQ(v.find("zzz"), nullptr);
  EXPECT_EQ(a->line(), 1u);
  EXPECT_EQ(a->column(), 8u);
}

TEST(Json, BigIntegersAreExact) {
  json::ParseResult r = json::parse("[9007199254740993, -9223372036854775808]");
  ASSERT_TRUE(r.ok);
  EXPECT_EQ(r.value.asArray()[0].asInt64(), 9007199254740993LL);
  EXPECT_EQ(r.value.asArray()[1].asInt64(), INT64_MIN);
  EXPECT_EQ(json::write(r.value), "[9007199254740993,-9223372036854775808]");
}

TEST(Json, SurrogatePairs) {
  json::ParseResult r = json::parse(R"("\ud83d\ude00")");
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(r.value.asString(), "\xf0\x9f\x98\x80");
  EXPECT_FALSE(json::parse(R"("\ud83d")").ok);
  EXPECT_FALSE(json::parse(R"("\ude00")").ok);
}

TEST(Json, ErrorsHaveLineAndColumn) {
  struct Case {
    const char *text;
    const char *expect;
  } cases[] = {
      {"{\"a\": 1,\n \"b\": }", "2:7: expected a JSON value"},
      {"[1, 2,]", "1:7: trailing comma in array"},
      {"{\"a\": 1,}", "1:9: trailing comma in object"},
      {"{\"a\": 1, \"a\": 2}", "1:10: duplicate key \"a\""},
      {"[01]", "leading zeros"},
      {"[1.]", "digit after the decimal point"},
      {"[NaN]", "expected a JSON value"},
      {"\"abc", "unterminated string"},
      {"\"a\tb\"", "control character"},
      {"[1] x", "1:5: unexpected 'x' after the JSON value"},
      {"", "1:1: expected a JSON value, found end of input"},
      {"// c\n[]", "1:1: expected a JSON value"},
      {"{\"a\" 1}", "expected ':'"},
      {"[1e999]", "number out of range"},
      {"[\"\\x\"]", "invalid escape"},
      {"tru", "invalid literal"},
  };
  for (const Case &c : cases) {
    json::ParseResult r = json::parse(c.text);
    EXPECT_FALSE(r.ok) << c.text;
    EXPECT_NE(r.error.find(c.expect), std::string::npos)
        << "input: " << c.text << "\ngot: " << r.error;
  }
}

TEST(Json, DeepNestingIsAnErrorNotACrash) {
  std::string deep(100000, '[');
  json::ParseResult r = json::parse(deep);
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.error.find("nesting"), std::string::npos);
}

TEST(Json, WriterRoundTrips) {
  json::Value v = json::Value::object();
  v.set("s", "q\"\\\n\x01");
  v.set("n", 0.1);
  v.set("i", int64_t(42));
  v.set("d", 12.0);
  v.set("arr", json::Value::array({1, 2, "x"}));
  json::Value nested = json::Value::object();
  nested.set("k", json::Value());
  v.set("o", nested);
  std::string compact = json::write(v);
  EXPECT_EQ(compact, R"({"s":"q\"\\\n\u0001","n":0.1,"i":42,"d":12,)"
                     R"("arr":[1,2,"x"],"o":{"k":null}})");
  json::ParseResult back = json::parse(compact);
  ASSERT_TRUE(back.ok) << back.error;
  EXPECT_EQ(json::write(back.value), compact);
  EXPECT_EQ(json::write(v, 2), "{\n"
                               "  \"s\": \"q\\\"\\\\\\n\\u0001\",\n"
                               "  \"n\": 0.1,\n"
                               "  \"i\": 42,\n"
                               "  \"d\": 12,\n"
                               "  \"arr\": [1, 2, \"x\"],\n"
                               "  \"o\": {\n"
                               "    \"k\": null\n"
                               "  }\n"
                               "}");
}

TEST(Json, FormatNumber) {
  EXPECT_EQ(json::formatNumber(3), "3");
  EXPECT_EQ(json::formatNumber(-0.0), "0");
  EXPECT_EQ(json::formatNumber(0.1 + 0.2), "0.30000000000000004");
  EXPECT_EQ(json::formatNumber(1e300), "1e+300");
  EXPECT_EQ(json::formatNumber(1.0 / 0.0), "null");
}
