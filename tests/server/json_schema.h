// A checker for the subset of JSON Schema that
// docs/protocol/server-messages.schema.json uses: type, const, enum,
// properties, required, additionalProperties: false, items, oneOf and local
// $ref (#/$defs/...). Any other keyword is reported as an error, so the
// schema cannot silently use something this checker ignores.
#pragma once

#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

namespace echecs::test {

class JsonSchema {
public:
    explicit JsonSchema(nlohmann::json root) : root_(std::move(root)) {}

    // The errors of `value` against the root schema (empty: valid), each
    // "path: what".
    std::vector<std::string> errors(const nlohmann::json& value) const {
        std::vector<std::string> out;
        check(root_, value, "$", out);
        return out;
    }

    // The schema at "#/$defs/name".
    const nlohmann::json& def(const std::string& name) const { return root_.at("$defs").at(name); }
    std::vector<std::string> errors(const nlohmann::json& schema, const nlohmann::json& value) const {
        std::vector<std::string> out;
        check(schema, value, "$", out);
        return out;
    }

private:
    static bool has_type(const nlohmann::json& v, const std::string& t) {
        if (t == "object") return v.is_object();
        if (t == "array") return v.is_array();
        if (t == "string") return v.is_string();
        if (t == "integer") return v.is_number_integer();
        if (t == "number") return v.is_number();
        if (t == "boolean") return v.is_boolean();
        if (t == "null") return v.is_null();
        return false;
    }

    void check(const nlohmann::json& s, const nlohmann::json& v, const std::string& path,
               std::vector<std::string>& out) const {
        static const std::set<std::string> known = {
            "$schema", "$id",        "title",    "description",          "$defs", "$ref", "type", "const",
            "enum",    "properties", "required", "additionalProperties", "items", "oneOf"};
        for (const auto& [k, _] : s.items())
            if (!known.count(k)) out.push_back(path + ": the checker does not know the keyword " + k);
        if (s.contains("$ref")) {
            const std::string ref = s["$ref"];
            const std::string prefix = "#/$defs/";
            if (ref.rfind(prefix, 0) != 0 || !root_.at("$defs").contains(ref.substr(prefix.size())))
                out.push_back(path + ": unknown $ref " + ref);
            else
                check(root_["$defs"][ref.substr(prefix.size())], v, path, out);
        }
        if (s.contains("type")) {
            const nlohmann::json& t = s["type"];
            bool ok = false;
            if (t.is_string()) ok = has_type(v, t);
            for (const auto& one : t.is_array() ? t : nlohmann::json::array()) ok = ok || has_type(v, one);
            if (!ok) out.push_back(path + ": " + v.dump() + " is not of type " + t.dump());
        }
        if (s.contains("const") && v != s["const"]) out.push_back(path + ": " + v.dump() + " != " + s["const"].dump());
        if (s.contains("enum")) {
            bool ok = false;
            for (const auto& e : s["enum"]) ok = ok || v == e;
            if (!ok) out.push_back(path + ": " + v.dump() + " not in " + s["enum"].dump());
        }
        if (v.is_object()) {
            for (const auto& r : s.value("required", nlohmann::json::array()))
                if (!v.contains(r)) out.push_back(path + ": missing " + r.get<std::string>());
            const nlohmann::json props = s.value("properties", nlohmann::json::object());
            for (const auto& [k, x] : v.items()) {
                if (props.contains(k))
                    check(props[k], x, path + "." + k, out);
                else if (s.contains("additionalProperties") && s["additionalProperties"] == false)
                    out.push_back(path + ": " + k + " is not in the schema");
            }
        }
        if (v.is_array() && s.contains("items"))
            for (std::size_t i = 0; i < v.size(); ++i)
                check(s["items"], v[i], path + "[" + std::to_string(i) + "]", out);
        if (s.contains("oneOf")) {
            // Exactly one branch; on failure, the errors of the branches whose
            // discriminating const (type, op, kind) matched, to say why.
            int valid = 0;
            std::vector<std::string> why, all;
            for (const auto& branch : s["oneOf"]) {
                std::vector<std::string> e;
                check(branch, v, path, e);
                if (e.empty()) ++valid;
                bool discriminated = true;
                for (const std::string& one : e)
                    if (one.find(" != ") != std::string::npos && one.rfind(path + ".", 0) == 0 &&
                        one.find_first_of(".[", path.size() + 1) > one.find(": "))
                        discriminated = false;  // a const of the object itself: another message
                if (discriminated) why.insert(why.end(), e.begin(), e.end());
                all.insert(all.end(), e.begin(), e.end());
            }
            if (valid != 1) {
                out.push_back(path + ": " + std::to_string(valid) + " of the oneOf branches match");
                const std::vector<std::string>& more = why.empty() ? all : why;
                out.insert(out.end(), more.begin(), more.end());
            }
        }
    }

    nlohmann::json root_;
};

}  // namespace echecs::test
