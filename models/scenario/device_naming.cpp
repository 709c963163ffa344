#include "models/scenario/device_naming.hpp"

#include <algorithm>
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

// Every key that comes in both namings.
constexpr NamedKey kNamedKeys[] = {{"device", "gpu"},
                                   {"devices_per_server", "gpus_per_server"},
                                   {"kernel_latency_by_device", "kernel_latency_by_gpu"},
                                   {"instances_per_device", "instances_per_gpu"},
                                   {"device_hour", "gpu_hour"}};

const char* other_name(const std::string& key) {
  for (const NamedKey& k : kNamedKeys) {
    if (key == k.device) return k.gpu;
    if (key == k.gpu) return k.device;
  }
  return nullptr;
}

// A reference token of a JSON pointer as written (RFC 6901: "~1" is "/", "~0" is "~").
std::string unescaped(const std::string& token) {
  std::string out;
  for (std::size_t i = 0; i < token.size(); ++i)
    if (token[i] == '~' && i + 1 < token.size() && (token[i + 1] == '0' || token[i + 1] == '1'))
      out += token[++i] == '0' ? '~' : '/';
    else
      out += token[i];
  return out;
}

}  // namespace

std::string pointer_in_document_naming(const nlohmann::json& document, const std::string& pointer) {
  if (pointer.empty() || pointer[0] != '/') return pointer;
  std::string out;
  const nlohmann::json* node = &document;
  for (std::size_t start = 1; start <= pointer.size();) {
    const std::size_t end = std::min(pointer.find('/', start), pointer.size());
    std::string token = pointer.substr(start, end - start);
    start = end + 1;
    if (node && node->is_object() && !node->contains(unescaped(token)))
      if (const char* other = other_name(token); other && node->contains(other)) token = other;
    out += "/" + token;
    if (!node) continue;
    const std::string key = unescaped(token);
    if (node->is_object() && node->contains(key)) {
      node = &(*node)[key];
    } else if (node->is_array() && !key.empty() && key.size() < 10 &&
               key.find_first_not_of("0123456789") == std::string::npos && std::stoul(key) < node->size()) {
      node = &(*node)[std::stoul(key)];
    } else {
      node = nullptr;  // beyond the document: apply_override says what is wrong with the pointer
    }
  }
  return out;
}

DeviceNaming read_device_naming(const JsonNode& root) {
  NamingScan scan;
  if (auto platform = root.find("platform"))
    if (auto servers = platform->find("servers"))
      for (const JsonNode& server : servers->elements())
        scan.look(server, {{"device", "gpu"}, {"devices_per_server", "gpus_per_server"}});
  if (auto models = root.find("models"))
    for (const std::string& name : models->keys())
      scan.look(models->at(name),
                {{"kernel_latency_by_device", "kernel_latency_by_gpu"}, {"instances_per_device", "instances_per_gpu"}});
  if (auto costs = root.find("costs")) scan.look(*costs, {{"device_hour", "gpu_hour"}});
  return scan.naming();
}

}  // namespace sonicsim
