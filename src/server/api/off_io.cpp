#include "server/api/off_io.h"

#include <boost/asio/post.hpp>
#include <exception>
#include <memory>

#include "server/play/hub.h"

namespace echecs::server {

void answer_off_io(Hub& hub, const HttpContextPtr& ctx, std::function<nlohmann::json()> work) {
    auto job = [&hub, ctx, work = std::move(work)](const std::atomic<bool>&) {
        auto out = std::make_shared<nlohmann::json>();
        std::exception_ptr failed;
        try {
            *out = work();
        } catch (...) {
            failed = std::current_exception();  // an ApiError: answered as one, from the I/O thread
        }
        boost::asio::post(hub.ioc(), ctx->guard([ctx, out, failed] {
            if (failed) std::rethrow_exception(failed);
            ctx->json(200, *out);
        }));
    };
    switch (hub.engine().submit_analysis(ctx->request().ip, std::move(job))) {
        case EngineScheduler::Refusal::None: return;
        case EngineScheduler::Refusal::ClientFull:
            throw ApiError(Reason::eval_pending, "this address already has work waiting for the engine's threads");
        case EngineScheduler::Refusal::QueueFull:
        case EngineScheduler::Refusal::Stopping: throw ApiError(Reason::engine_busy, "the server is busy; try again");
    }
}

}  // namespace echecs::server
