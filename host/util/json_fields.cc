// json_fields.cc — typed, located reads of JSON members.
#include "host/util/json_fields.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <limits>

namespace mpidbg::host {

using nlohmann::json;

Result<json> ReadJsonFile(const std::string& path) {
  std::ifstream in(path);
  if (!in) return Status::Unreadable("cannot open " + path + ": " + std::strerror(errno));
  json doc = json::parse(in, nullptr, false);
  if (doc.is_discarded()) return Status::Unreadable(path + " is not valid JSON");
  return doc;
}

std::string JoinPath(const std::string& where, const std::string& key) {
  return where.empty() ? key : where + "." + key;
}

std::string IndexPath(const std::string& where, size_t index) {
  return where + "[" + std::to_string(index) + "]";
}

Status CheckSchema(JsonFields& f, const json& doc, const std::string& name,
                         const char* schema) {
  std::string got;
  f.String(doc, "", "schema", &got, true);
  if (f.ok() && got != schema) {
    return Status::Unreadable(name + " is a \"" + got + "\" document, not " + schema);
  }
  return Status::Ok();
}

void CheckWorldSize(JsonFields& f, int world_size, int max) {
  if (f.ok() && (world_size < 1 || world_size > max)) {
    f.Fail("job.world_size is " + std::to_string(world_size) + ", not between 1 and " +
           std::to_string(max));
  }
}

bool RankOf(JsonFields& f, const json& obj, const std::string& where, const char* key,
            int world_size, int* out) {
  f.Int(obj, where, key, out, true);
  if (!f.ok()) return false;
  if (*out < 0 || *out >= world_size) {
    f.Fail(JoinPath(where, key) + " is " + std::to_string(*out) + ", not a rank of the " +
           std::to_string(world_size) + "-rank job");
    return false;
  }
  return true;
}

namespace {

const char* TypeName(const json& v) {
  switch (v.type()) {
    case json::value_t::null: return "null";
    case json::value_t::object: return "an object";
    case json::value_t::array: return "an array";
    case json::value_t::string: return "a string";
    case json::value_t::boolean: return "a boolean";
    case json::value_t::number_integer: return v.get<int64_t>() < 0 ? "a negative number"
                                                                      : "an integer";
    case json::value_t::number_unsigned: return "an integer";
    case json::value_t::number_float: return "a fraction";
    default: return "something else";
  }
}

}  // namespace

const json* JsonFields::Find(const json& obj, const std::string& where, const char* key,
                             bool required) {
  if (!ok()) return nullptr;
  if (!obj.is_object()) {
    Fail((where.empty() ? std::string("the document") : where) + " is not an object");
    return nullptr;
  }
  auto it = obj.find(key);
  if (it == obj.end()) {
    if (required) Fail(JoinPath(where, key) + " is missing");
    return nullptr;
  }
  return &*it;
}

void JsonFields::WrongType(const std::string& where, const char* key, const json& value,
                           const char* wanted) {
  Fail(JoinPath(where, key) + " is " + TypeName(value) + ", not " + wanted);
}

void JsonFields::U64(const json& obj, const std::string& where, const char* key, uint64_t* out,
                     bool required) {
  const json* v = Find(obj, where, key, required);
  if (v == nullptr) return;
  if (v->is_number_unsigned()) {
    *out = v->get<uint64_t>();
  } else if (v->is_number_integer() && v->get<int64_t>() >= 0) {
    *out = static_cast<uint64_t>(v->get<int64_t>());
  } else {
    WrongType(where, key, *v, "an unsigned integer");
  }
}

void JsonFields::I64(const json& obj, const std::string& where, const char* key, int64_t* out,
                     bool required) {
  const json* v = Find(obj, where, key, required);
  if (v == nullptr) return;
  if (v->is_number_integer()) {
    // nlohmann stores values above INT64_MAX as unsigned: refuse those.
    if (v->is_number_unsigned() &&
        v->get<uint64_t>() > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
      Fail(JoinPath(where, key) + " is out of range");
      return;
    }
    *out = v->get<int64_t>();
  } else {
    WrongType(where, key, *v, "an integer");
  }
}

void JsonFields::Int(const json& obj, const std::string& where, const char* key, int* out,
                     bool required) {
  int64_t wide = *out;
  I64(obj, where, key, &wide, required);
  if (!ok()) return;
  if (wide < std::numeric_limits<int>::min() || wide > std::numeric_limits<int>::max()) {
    Fail(JoinPath(where, key) + " is out of range");
    return;
  }
  *out = static_cast<int>(wide);
}

void JsonFields::Double(const json& obj, const std::string& where, const char* key,
                        double* out) {
  const json* v = Find(obj, where, key, false);
  if (v == nullptr) return;
  if (v->is_number()) {
    *out = v->get<double>();
  } else {
    WrongType(where, key, *v, "a number");
  }
}

void JsonFields::Bool(const json& obj, const std::string& where, const char* key, bool* out) {
  const json* v = Find(obj, where, key, false);
  if (v == nullptr) return;
  if (v->is_boolean()) {
    *out = v->get<bool>();
  } else {
    WrongType(where, key, *v, "true or false");
  }
}

void JsonFields::String(const json& obj, const std::string& where, const char* key,
                        std::string* out, bool required) {
  const json* v = Find(obj, where, key, required);
  if (v == nullptr || v->is_null()) return;
  if (v->is_string()) {
    *out = v->get<std::string>();
  } else {
    WrongType(where, key, *v, "a string");
  }
}

const json* JsonFields::Object(const json& obj, const std::string& where, const char* key,
                               bool required) {
  const json* v = Find(obj, where, key, required);
  if (v == nullptr) return nullptr;
  if (v->is_null() && !required) return nullptr;
  if (!v->is_object()) {
    WrongType(where, key, *v, "an object");
    return nullptr;
  }
  return v;
}

const json* JsonFields::Array(const json& obj, const std::string& where, const char* key,
                              bool required) {
  const json* v = Find(obj, where, key, required);
  if (v == nullptr) return nullptr;
  if (v->is_null() && !required) return nullptr;
  if (!v->is_array()) {
    WrongType(where, key, *v, "an array");
    return nullptr;
  }
  return v;
}

}  // namespace mpidbg::host
