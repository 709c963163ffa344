#pragma once
// Instants, maestro and kernel timers: how this simulation acts on simulated time outside its actors.
//
// SimGrid's main loop (EngineImpl::run) runs, at one date, every actor ready to run, one at a time
// (contexts/nthreads 1, SimGrid's default), then those their simcalls woke, until none is ready.
// Only then does it solve for the next event (the earliest kernel timer, or an activity's end),
// run the timers due, and wake the actors whose activities ended. A kernel timer set at the current
// date is due at once: its callback runs in maestro (SimGrid's own context, not an actor) after
// every actor of the instant has run and before the clock moves. That is the end of the instant:
// everything that happened at this date is known. The actors it wakes (a semaphore released), and
// those whose activities end at this same date, run after it, still at this date: one date may end
// several instants, each after its actors.
//
// Setting a kernel timer from an actor needs no simcall: actors run one at a time, so touching
// SimGrid's timer heap from one is as safe as from maestro. In maestro, SimGrid runs calls directly
// (no actor switch): a callback may start an activity or release a semaphore, never block.
//
// Ordering relied upon: a timer at a later date runs when the clock reaches it, before the actors
// that activities ending then wake; due timers run until none is left, those set meanwhile for the
// same date included; timers of one date run in an order SimGrid's heap leaves unspecified (it
// compares dates only), though deterministic: things that must end in a given order go under one
// timer (DatedEnds).
#include <utility>

#include <simgrid/kernel/Timer.hpp>
#include <simgrid/s4u/Engine.hpp>

namespace sonicsim::sim {

// Calls `callback` in maestro at `date` (not before the current date).
template <class Callback>
void at_date(double date, Callback&& callback) {
  simgrid::kernel::timer::Timer::set(date, std::forward<Callback>(callback));
}

// Calls `callback` in maestro once every actor of the current instant has run.
template <class Callback>
void at_end_of_instant(Callback&& callback) {
  at_date(simgrid::s4u::Engine::get_clock(), std::forward<Callback>(callback));
}

}  // namespace sonicsim::sim
