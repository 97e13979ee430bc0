// The web client's files (GET/HEAD of every path that is no API route):
// files of the web root with their content type, index.html for the
// client's own routes, and no way out of the web root.
#include <filesystem>
#include <fstream>
#include <sstream>

#include "server/play/hub.h"

namespace echecs::server {

namespace {

std::string content_type(const std::filesystem::path& p) {
    static const std::pair<const char*, const char*> TYPES[] = {
        {".html", "text/html; charset=utf-8"},
        {".js", "text/javascript; charset=utf-8"},
        {".mjs", "text/javascript; charset=utf-8"},
        {".css", "text/css; charset=utf-8"},
        {".json", "application/json"},
        {".svg", "image/svg+xml"},
        {".png", "image/png"},
        {".jpg", "image/jpeg"},
        {".jpeg", "image/jpeg"},
        {".gif", "image/gif"},
        {".ico", "image/x-icon"},
        {".woff", "font/woff"},
        {".woff2", "font/woff2"},
        {".ttf", "font/ttf"},
        {".map", "application/json"},
        {".txt", "text/plain; charset=utf-8"},
        {".wasm", "application/wasm"},
        {".webmanifest", "application/manifest+json"},
    };
    const std::string ext = p.extension().string();
    for (auto& [e, t] : TYPES)
        if (ext == e) return t;
    return "application/octet-stream";
}

void serve(const Hub& hub, const HttpContextPtr& ctx) {
    namespace fs = std::filesystem;
    const std::string& path = ctx->path();
    if (path.find("..") != std::string::npos || path.find('\\') != std::string::npos ||
        path.find('\0') != std::string::npos || path.find("//") != std::string::npos || path.empty() ||
        path[0] != '/' || path.find('%') != std::string::npos)
        throw ApiError(Reason::path_invalid, "bad path");
    const fs::path root(hub.options().web_root);
    fs::path file = root / path.substr(1);
    std::error_code ec;
    HttpResponse res;
    if (path == "/" || !fs::is_regular_file(file, ec)) {
        // Client routes get index.html; a missing asset (with an extension) is a 404.
        const bool asset =
            fs::path(path).has_extension() && !path.starts_with("/game/") && !path.starts_with("/challenge/");
        if (asset && path != "/") throw ApiError(Reason::file_not_found, "no such file");
        file = root / "index.html";
        if (!fs::is_regular_file(file, ec)) {
            res.status = 404;
            res.content_type = "text/html; charset=utf-8";
            res.body =
                "<!doctype html><title>echecs</title><p>The web client is not built (no index.html in the web "
                "root). Build it, or pass --web-root.</p>";
            return ctx->send(std::move(res));
        }
    }
    std::ifstream in(file, std::ios::binary);
    std::ostringstream body;
    body << in.rdbuf();
    res.body = body.str();
    res.content_type = content_type(file);
    if (file.filename() != "index.html") res.headers.emplace_back("Cache-Control", "public, max-age=300");
    ctx->send(std::move(res));
}

}  // namespace

void add_static_routes(Router& r, Hub& hub) {
    r.set_fallback([&hub](const HttpContextPtr& ctx) { serve(hub, ctx); });
}

}  // namespace echecs::server
