#include "sim/client/threaded_job.hpp"

#include <string>
#include <vector>

#include "sim/client/event_stream.hpp"
#include "sim/client/grid_job.hpp"
#include "sim/client/job_threads.hpp"
#include "sim/simulated_time.hpp"

namespace sonicsim::sim {
namespace sg4 = simgrid::s4u;

struct ThreadedJob::State {
  State(int index, sg4::Host* host, double start_s, std::optional<int> events, JobContext context, int run)
      : index(index),
        host(host),
        start_s(start_s),
        events(events),
        context(context),
        run(run),
        threads(context.scenario.workload.threads, context.recorder, index) {}

  int index;
  sg4::Host* host;
  double start_s;
  std::optional<int> events;
  JobContext context;
  int run;
  JobThreads threads;
  std::vector<std::unique_ptr<EventStream>> streams;
  // The streams' actors while they run (`running`), for a failing stream to stop the others; their
  // ActorPtr are the job actor's, so that no actor's code holds its own actor.
  std::vector<sg4::Actor*> actors;
  std::vector<bool> running;
  std::vector<bool> in_event;  // per stream: an event under way
  std::vector<bool> on_cpu;    // per module: on the CPU for the rest of the job (gate, fallback_scope job)
  bool gated = false;
  int next_event = 0;  // the next event the source reads
  int done = 0;        // events completed, over the streams
  bool failed = false;
};

ThreadedJob::ThreadedJob(int index, sg4::Host* host, double start_s, std::optional<int> events, JobContext context,
                         int run)
    : state_(std::make_shared<State>(index, host, start_s, events, context, run)) {}

bool ThreadedJob::failed() const { return state_->failed; }

void ThreadedJob::operator()() {
  State& job = *state_;
  sg4::this_actor::sleep_until(job.start_s);
  const Workload& w = job.context.scenario.workload;
  job.gated = refused_at_start(job.context);
  job.on_cpu.assign(w.modules.size(), job.gated);
  job.context.recorder.job_ledger().run_began(job.index, w.threads);
  job.running.assign(static_cast<std::size_t>(w.streams), true);
  job.in_event.assign(static_cast<std::size_t>(w.streams), false);
  std::string name = "job-" + std::to_string(job.index);
  if (job.run > 0) name.append(".").append(std::to_string(job.run));
  for (int s = 0; s < w.streams; ++s)
    job.streams.push_back(std::make_unique<EventStream>(job.context, job.index, s, job.run, job.host, &job.threads));
  // A stream may fail the job before the last one is created (no server ready, at once).
  std::vector<sg4::ActorPtr> actors;
  for (int s = 0; s < w.streams && !job.failed; ++s) {
    actors.push_back(
        sg4::Actor::create(name + "/" + std::to_string(s), job.host, [state = state_, s] { run_stream(state, s); }));
    job.actors.push_back(actors.back().get());
  }
  for (const sg4::ActorPtr& actor : actors) actor->join();
  job.context.recorder.job_ledger().run_finished(job.index, job.failed, w.threads);
  for (const auto& stream : job.streams) stream->end_of_job();
}

// A stream reads the next event once it has a thread, and gives the thread back at the end of the
// event: the next event of the stream is read by a task of the shared queue (the source's serial
// queue, docs/reference/cmssw-sonic.md §1), which any thread may run.
void ThreadedJob::run_stream(const std::shared_ptr<State>& state, int s) {
  State& job = *state;
  const Workload& w = job.context.scenario.workload;
  EventStream& stream = *job.streams[static_cast<std::size_t>(s)];
  for (;;) {
    job.threads.acquire();
    if ((job.events && job.next_event >= *job.events) || (w.duration_s && sg4::Engine::get_clock() >= *w.duration_s))
      break;
    const int event = job.next_event++;
    job.in_event[static_cast<std::size_t>(s)] = true;
    if (!stream.run_event(event, job.on_cpu)) return fail(state, s);
    job.in_event[static_cast<std::size_t>(s)] = false;
    ++job.done;
    if (job.gated) job.context.recorder.event_gated();
    job.threads.release();
  }
  job.threads.release();
  job.running[static_cast<std::size_t>(s)] = false;
}

// Stream `failing` failed the job (its event and requests are accounted for). The other streams stop
// at the end of this instant, in maestro: an actor's kill is a simcall, during which the streams
// ready at this instant would each run one more step, and one might fail the job too.
void ThreadedJob::fail(const std::shared_ptr<State>& state, int failing) {
  state->running[static_cast<std::size_t>(failing)] = false;
  if (state->failed) return;  // another stream failed the job at this instant and stops the others
  state->failed = true;
  at_end_of_instant([state] { stop_streams(*state); });
}

// In maestro: the streams still running stop where they are, their events under way fail, and the
// requests they wait for are cancelled.
void ThreadedJob::stop_streams(State& job) {
  for (std::size_t s = 0; s < job.actors.size(); ++s) {
    if (!job.running[s]) continue;
    job.running[s] = false;
    job.actors[s]->kill();
    if (job.in_event[s]) job.context.recorder.event_failed();
    job.streams[s]->cancel_requests();
    job.streams[s]->end_of_job();
  }
  job.context.recorder.job_ledger().run_failed(job.start_s, sg4::Engine::get_clock(), job.done,
                                               job.context.scenario.workload.threads);
}

}  // namespace sonicsim::sim
