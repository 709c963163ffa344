#include "models/scenario/device_naming.hpp"

#include <string>
#include <vector>

namespace sonicsim {

DeviceWords device_words(DeviceNaming naming) {
  if (naming == DeviceNaming::Device) return {"device", "devices", "device", "Device"};
  return {"gpu", "gpus", "GPU", "GPU"};
}

std::optional<JsonNode> either_name(const JsonNode& node, const char* name, const char* older_name, bool required) {
  const auto general = node.find(name);
  const auto older = node.find(older_name);
  if (general && older)
    older->fail(std::string("give \"") + name + "\" or its older name \"" + older_name + "\", not both");
  if (!general && !older && required)
    node.fail(std::string("expected \"") + name + "\" (or its older name \"" + older_name + "\")");
  return general ? general : older;
}

namespace {

struct NamedKey {
  const char* device;
  const char* gpu;
};

// Walks the keys that come in both namings and holds the first one seen.
class NamingScan {
 public:
  void look(const JsonNode& node, std::initializer_list<NamedKey> keys) {
    for (const NamedKey& k : keys) {
      if (auto d = node.find(k.device)) see(*d, DeviceNaming::Device);
      if (auto g = node.find(k.gpu)) see(*g, DeviceNaming::Gpu);
    }
  }
  DeviceNaming naming() const { return first_ ? *first_ : DeviceNaming::Gpu; }

 private:
  void see(const JsonNode& key, DeviceNaming naming) {
    if (!first_) {
      first_ = naming;
      first_pointer_ = key.pointer();
      return;
    }
    if (naming != *first_)
      key.fail(std::string("this scenario names its accelerators with the ") +
               (*first_ == DeviceNaming::Device ? "device" : "GPU") + " names (" + first_pointer_ +
               "); use one naming throughout, since the outputs follow it");
  }

  std::optional<DeviceNaming> first_;
  std::string first_pointer_;
};

}  // namespace

DeviceNaming read_device_naming(const JsonNode& root) {
  NamingScan scan;
  if (auto platform = root.find("platform"))
    if (auto servers = platform->find("servers"))
      for (const JsonNode& server : servers->elements())
        scan.look(server, {{"device", "gpu"}, {"devices_per_server", "gpus_per_server"}});
  if (auto models = root.find("models"))
    for (const std::string& name : models->keys())
      scan.look(models->at(name), {{"kernel_latency_by_device", "kernel_latency_by_gpu"},
                                   {"instances_per_device", "instances_per_gpu"}});
  if (auto costs = root.find("costs")) scan.look(*costs, {{"device_hour", "gpu_hour"}});
  return scan.naming();
}

}  // namespace sonicsim
