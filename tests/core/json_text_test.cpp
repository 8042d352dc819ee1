// The JSON reader every suite and results file goes through (src/graphbench/core/json/json_text.h):
// hostile files are bad input naming the file, never a crash or a silent pass.
#include "support/catch.h"

#include "graphbench/core/base/errors.h"
#include "graphbench/core/json/json_text.h"

#include <string>

namespace {

using graphbench::InputError;
using graphbench::parse_json_text;

std::string parse_error(const std::string& text) {
  try {
    parse_json_text(text, "f.json");
  } catch (const InputError& e) {
    return e.what();
  }
  return "(no error)";
}

}  // namespace

TEST_CASE("json text: nesting deeper than the limit is refused while parsing", "[json]") {
  const std::string deep(100000, '[');  // a crash (stack overflow) before the limit existed
  std::string pointer;
  for (int i = 0; i < graphbench::kMaxJsonDepth; ++i) pointer += "/0";
  CHECK(parse_error(deep) == "f.json: " + pointer + ": nesting deeper than 64 levels (a graphbench file nests a few)");
  std::string objects;
  for (int i = 0; i < 100000; ++i) objects += R"({"a":)";
  CHECK_THAT(parse_error(objects), Catch::Contains("f.json: /a/a/a/"));
  CHECK_THAT(parse_error(objects), Catch::Contains("nesting deeper than 64 levels"));

  // Exactly at the limit is fine.
  const std::string at_limit = std::string(graphbench::kMaxJsonDepth, '[') + std::string(graphbench::kMaxJsonDepth, ']');
  CHECK(parse_json_text(at_limit, "f.json").is_array());
  const std::string over = "[" + at_limit + "]";
  CHECK_THAT(parse_error(over), Catch::Contains("nesting deeper than 64 levels"));
}

TEST_CASE("json text: a number too large for a double names the file and the place", "[json]") {
  CHECK(parse_error("{\"a\": 1,\n \"b\": 1e999}") ==
        "f.json: line 2, column 7: number 1e999 does not fit in a double (largest about 1.8e308)");
  CHECK(parse_error("[-1e400]") == "f.json: line 1, column 2: number -1e400 does not fit in a double (largest about 1.8e308)");
  // Underflow is no error: the value is 0.
  CHECK(parse_json_text("[1e-400]", "f.json")[0].get<double>() == 0.0);
  // A large integer that does not fit 64 bits is read as a double, as JSON allows.
  CHECK(parse_json_text("[123456789012345678901234567890]", "f.json")[0].is_number_float());
}

TEST_CASE("json text: a key written twice in one object is refused with the key and place", "[json]") {
  CHECK(parse_error(R"({"suite": "a", "suite": "b"})") ==
        "f.json: /suite: duplicate key \"suite\" (an object may hold each key once)");
  CHECK(parse_error(R"({"cases": [{"name": "x"}, {"name": "y", "shape": [1], "name": "z"}]})") ==
        "f.json: /cases/1/name: duplicate key \"name\" (an object may hold each key once)");
  // The same key in different objects is fine, and escapes are decoded before comparing.
  CHECK(parse_json_text(R"({"a": {"k": 1}, "b": {"k": 2}, "c": [{"k": 3}, {"k": 4}]})", "f.json").size() == 3);
  CHECK(parse_error(R"({"ab": 1, "a\u0062": 2})") == "f.json: /ab: duplicate key \"ab\" (an object may hold each key once)");
  // Pointers escape '/' and '~' (RFC 6901).
  CHECK(parse_error(R"({"x": {"a/b~": 1, "a/b~": 2}})") ==
        "f.json: /x/a~1b~0: duplicate key \"a/b~\" (an object may hold each key once)");
}

TEST_CASE("json text: pointers count array elements of every kind", "[json]") {
  CHECK(parse_error(R"([1, "two", null, {"k": [true, {"d": 1, "d": 2}]}])") ==
        "f.json: /3/k/1/d: duplicate key \"d\" (an object may hold each key once)");
  CHECK(parse_error(R"([[], {}, [[1], {"x": 1, "x": 2}]])") ==
        "f.json: /2/1/x: duplicate key \"x\" (an object may hold each key once)");
}

TEST_CASE("json text: syntax errors keep line and column", "[json]") {
  CHECK_THAT(parse_error("{\n  \"a\": 1,\n}"), Catch::Contains("f.json: invalid JSON at line 3, column 1:"));
  CHECK_THAT(parse_error(""), Catch::Contains("f.json: invalid JSON at line 1, column 1:"));
  CHECK_THAT(parse_error("[\"\xff\"]"), Catch::Contains("f.json: invalid JSON at line 1"));
}
