// The request path's settings (scenarios/README.md, "The request path"): what the frontend's cost
// blocks, a model's staging and the clients' protocol read to, and their errors, each naming its
// JSON path.
#include <doctest/doctest.h>

#include "models/io/input_error.hpp"
#include "tests/support/scenario_support.hpp"

using namespace sonicsim;
using nlohmann::json;

namespace {

json with_tensors(json d) {
  json& m = d["models"]["m"];
  m.erase("input_bytes_per_item");
  m.erase("output_bytes_per_item");
  m["input"] = {{{"name", "a"}, {"data_type", "TYPE_FP32"}, {"dims", {10}}},
                {{"name", "b"}, {"data_type", "TYPE_INT64"}, {"dims", {3}}},
                {{"name", "c"}, {"data_type", "TYPE_FP16"}, {"dims", {4}}}};
  m["output"] = {{{"name", "y"}, {"data_type", "TYPE_FP32"}, {"dims", {2}}}};
  return d;
}

json& frontend_of(json& d) { return d["platform"]["servers"][0]["frontend"]; }

}  // namespace

TEST_CASE("frontend costs: flat keys for any protocol, or one block per protocol; a model counts its tensors") {
  json d = with_tensors(test::base_scenario());
  frontend_of(d) = {{"per_request", "1ms"}, {"per_input_tensor", "20us"}, {"per_output_tensor", "30us"}};
  Scenario s = test::parse(d);
  CHECK(s.client_protocol() == ClientProtocol::Grpc);
  CHECK(s.models[0].input_tensors() == 3);
  CHECK(s.models[0].output_tensors() == 1);
  const FrontendSpec& flat = *s.platform.servers[0].frontend;
  CHECK(flat.by_protocol.empty());
  for (ClientProtocol p : {ClientProtocol::Grpc, ClientProtocol::Http, ClientProtocol::SystemShm})
    CHECK(flat.cost_for(p).per_input_tensor_s == doctest::Approx(20e-6));
  // 1 ms + 3 x 20 us + 0 (no per-byte cost); 0 + 2 x 30 us.
  CHECK(flat.cost_for(ClientProtocol::Grpc).request_s(3, 1e6) == doctest::Approx(1.06e-3));
  CHECK(flat.cost_for(ClientProtocol::Grpc).response_s(2, 1e6) == doctest::Approx(60e-6));

  frontend_of(d) = {{"grpc", {{"per_request", "1ms"}}},
                    {"system_shm", {{"per_request", "0.2ms"}, {"input_bandwidth", "80Gbps"}}}};
  d["workload"]["protocol"] = "system_shm";
  s = test::parse(d);
  CHECK(s.client_protocol() == ClientProtocol::SystemShm);
  const FrontendCost& shm = s.platform.servers[0].frontend->cost_for(ClientProtocol::SystemShm);
  CHECK(shm.per_request_s == doctest::Approx(0.2e-3));
  CHECK(shm.input_rate_Bps == doctest::Approx(10e9));
}

TEST_CASE("frontend cost errors name the path: flat and blocks mixed, the clients' block missing, no tensors") {
  json d = with_tensors(test::base_scenario());
  frontend_of(d) = {{"per_request", "1ms"}, {"grpc", {{"per_request", "1ms"}}}};
  CHECK_THROWS_WITH_AS(
      test::parse(d),
      doctest::Contains(
          "/platform/servers/0/frontend/grpc: expected either costs per protocol or the flat \"per_request\""),
      InputError);

  frontend_of(d) = {{"http", {{"per_request", "1ms"}}}};
  CHECK_THROWS_WITH_AS(test::parse(d), doctest::Contains("/platform/servers/0/frontend: expected a \"grpc\" block"),
                       InputError);

  frontend_of(d) = {{"grpc", {{"per_request", "1ms"}, {"per_tensor", "1ms"}}}};
  CHECK_THROWS_WITH_AS(test::parse(d), doctest::Contains("/platform/servers/0/frontend/grpc"), InputError);

  frontend_of(d) = {{"grpc", {{"per_request", "1ms"}}}};
  d["workload"]["protocol"] = "websocket";
  CHECK_THROWS_WITH_AS(test::parse(d), doctest::Contains("/workload/protocol: expected \"grpc\", \"http\""),
                       InputError);

  json bare = test::base_scenario();  // bytes per item, no tensors listed
  frontend_of(bare) = {{"per_input_tensor", "1ms"}};
  CHECK_THROWS_WITH_AS(
      test::parse(bare),
      doctest::Contains("/platform/servers/0/frontend/per_input_tensor: model \"m\" lists no input tensors"),
      InputError);
  frontend_of(bare) = {{"http", {{"per_output_tensor", "1ms"}}}};
  bare["workload"]["protocol"] = "http";
  CHECK_THROWS_WITH_AS(
      test::parse(bare),
      doctest::Contains("/platform/servers/0/frontend/http/per_output_tensor: model \"m\" lists no output tensors"),
      InputError);
  frontend_of(bare) = {{"per_input_tensor", "0s"}};  // no cost per tensor: nothing to count
  CHECK_NOTHROW(test::parse(bare));
}

TEST_CASE("staging: gather, copies at the buffer memory's rate; errors name the path") {
  json d = test::base_scenario();
  d["models"]["m"]["staging"] = {{"per_request", "10us"},
                                 {"gather_bandwidth", "8Gbps"},
                                 {"memory", "pageable"},
                                 {"host_to_device", {{"pageable", "24Gbps"}}}};
  const StagingSpec s = *test::parse(d).models[0].staging;
  CHECK_FALSE(s.pinned);
  // Pageable: each request copied straight to the device, no gather pass: 2 x 10 us + 3e6 B / 3 GB/s.
  CHECK(s.input_s(2, 3e6, true) == doctest::Approx(20e-6 + 1e-3));
  // A CPU instance only gathers: 2 x 10 us + 3e6 B / 1 GB/s.
  CHECK(s.input_s(2, 3e6, false) == doctest::Approx(20e-6 + 3e-3));
  CHECK(s.output_s(2, 3e6, true) == 0);

  d["models"]["m"]["staging"]["memory"] = "pinned";
  CHECK_THROWS_WITH_AS(test::parse(d),
                       doctest::Contains("/models/m/staging/host_to_device: expected a \"pinned\" rate"), InputError);
  d["models"]["m"]["staging"]["memory"] = "unified";
  CHECK_THROWS_WITH_AS(test::parse(d),
                       doctest::Contains("/models/m/staging/memory: expected \"pinned\" or \"pageable\""), InputError);
  d["models"]["m"]["staging"] = {{"gather_bandwidth", "8"}};
  CHECK_THROWS_WITH_AS(test::parse(d), doctest::Contains("/models/m/staging/gather_bandwidth"), InputError);
  d["models"]["m"]["staging"] = {{"per_batch", "1ms"}};
  CHECK_THROWS_WITH_AS(test::parse(d), doctest::Contains("/models/m/staging"), InputError);
}

TEST_CASE("perf_analyzer's protocol is read as the workload's is") {
  json d = test::perf_scenario({{"model", "m"}, {"concurrency", {1}}, {"protocol", "cuda_shm"}});
  CHECK(test::parse(d).client_protocol() == ClientProtocol::CudaShm);
  d["perf_analyzer"]["protocol"] = "grpcs";
  CHECK_THROWS_WITH_AS(test::parse(d), doctest::Contains("/perf_analyzer/protocol"), InputError);
}
