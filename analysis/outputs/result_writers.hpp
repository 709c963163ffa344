#pragma once
// Writes a run's results into a directory: summary.json and the CSV tables (columns documented in
// scenarios/README.md, "Outputs").
#include <string>

#include "analysis/records.hpp"
#include "analysis/summary/summary.hpp"
#include "models/scenario/scenario.hpp"

namespace sonicsim {

void write_results(const std::string& directory, const SimulationResults& results, const Summary& summary,
                   const Outputs& outputs);

void write_events_csv(const std::string& path, const SimulationResults& results);
void write_requests_csv(const std::string& path, const SimulationResults& results);
void write_batches_csv(const std::string& path, const SimulationResults& results);
void write_jobs_csv(const std::string& path, const SimulationResults& results);        // batch-system workloads
void write_timeseries_csv(const std::string& path, const SimulationResults& results);  // scraped runs

}  // namespace sonicsim
