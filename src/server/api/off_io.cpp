#include "server/api/off_io.h"

#include <boost/asio/post.hpp>
#include <exception>
#include <memory>

#include "server/api/input.h"
#include "server/play/hub.h"
#include "server/protocol/text.h"

namespace echecs::server {

namespace {
std::optional<ApiError> refusal_error(work::Scheduler::Refusal r) {
    switch (r) {
        case work::Scheduler::Refusal::None: return std::nullopt;
        case work::Scheduler::Refusal::ClientFull:
            return ApiError(Reason::eval_pending, "this address already has work waiting for the engine's threads");
        case work::Scheduler::Refusal::QueueFull:
        case work::Scheduler::Refusal::Stopping: break;
    }
    return ApiError(Reason::engine_busy, "the server is busy; try again");
}
}  // namespace

std::optional<ApiError> upload_refusal(Hub& hub, const std::string& ip) {
    return refusal_error(hub.work().analysis_refusal(ip));
}

void answer_off_io(Hub& hub, const HttpContextPtr& ctx,
                   std::function<nlohmann::json(const nlohmann::json& body)> work) {
    ctx->require_json();
    // The request is not touched on the I/O thread while the job holds it.
    auto job = [&hub, ctx, work = std::move(work)](const std::atomic<bool>&) {
        auto out = std::make_shared<std::string>();
        std::exception_ptr failed;
        try {
            *out = dump(work(parse_body(ctx->request().body)));
        } catch (...) {
            failed = std::current_exception();  // an ApiError: answered as one, from the I/O thread
        }
        boost::asio::post(hub.ioc(), ctx->guard([ctx, out, failed] {
            if (failed) std::rethrow_exception(failed);
            ctx->json_text(200, std::move(*out));
        }));
    };
    if (auto e = refusal_error(hub.work().submit_analysis(ctx->request().ip, std::move(job)))) throw *e;
}

}  // namespace echecs::server
