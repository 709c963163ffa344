#pragma once
// What `sonicsim calibrate` shows and writes: the fit-quality table on the terminal, the latency
// model file (JSON, read back by scenarios) and the residuals as CSV for plotting.
#include <string>

#include <nlohmann/json.hpp>

#include "analysis/calibration/calibration.hpp"

namespace sonicsim::calibration {

std::string format_calibration(const Calibration& calibration);

// `command` records how the file was made (the calibrate command line).
nlohmann::json latency_model_json(const Calibration& calibration, const std::string& command);

// batch, measured_s, standard_error_s, then fitted_s and relative_residual per form.
std::string residuals_csv(const Calibration& calibration);

}  // namespace sonicsim::calibration
