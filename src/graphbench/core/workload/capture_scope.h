// What the graph variant captures (docs/scopes.md): the whole step, or segments of it with the ops
// between them run eagerly. A case setting ("scope") and a sweep axis (--sweep scope=...).
//
//   full            the whole step, one graph (the default)
//   layer           one graph per repeated block (OpTag::layer); ops outside any block between them
//   attention-out   every piece between attention ops captured, attention eager (vLLM's PIECEWISE)
//   modules=REGEX   only ops whose module path matches REGEX (std::regex_search) captured
//   auto            pieces around the ops that cannot be captured (OpTag::capturable, or found so
//                   by a failed capture), those ops eager
//   fwd-bwd         forward and backward captured, the optimizer eager (make_graphed_callables)
//
// The graphs of a segmented step share one memory pool (as make_graphed_callables' do); the suffix
// ":pool-each" ("layer:pool-each") gives each graph a pool of its own.
#pragma once

#include <string>

namespace graphbench {

enum class ScopeKind { kFull, kLayer, kAttentionOut, kModules, kAuto, kForwardBackward };

struct CaptureScope {
  ScopeKind kind = ScopeKind::kFull;
  std::string modules_regex;  // kModules only
  bool pool_per_graph = false;  // ":pool-each": a memory pool per graph instead of one shared

  bool is_full() const { return kind == ScopeKind::kFull; }
  // The text parse_capture_scope reads back: "full", "layer", "modules=attn|mlp", ...
  std::string to_string() const;
  bool operator==(const CaptureScope& other) const {
    return kind == other.kind && modules_regex == other.modules_regex && pool_per_graph == other.pool_per_graph;
  }
  bool operator!=(const CaptureScope& other) const { return !(*this == other); }
};

// Reads a scope. Throws InputError naming `where` (a file and field, or an option), the text, and
// the accepted values; a modules= regex that std::regex rejects is an error too.
CaptureScope parse_capture_scope(const std::string& text, const std::string& where);

// The scopes in the order --help, messages and `graphbench list` give them: the text ("modules=REGEX":
// the prefix and a regex), the kind, and what it captures.
struct NamedScope {
  const char* name;
  ScopeKind kind;
  const char* help;
};
inline constexpr NamedScope kNamedScopes[] = {
    {"full", ScopeKind::kFull, "the whole step, one graph (the default)"},
    {"layer", ScopeKind::kLayer,
     "one graph per repeated block (a transformer layer, a ResNet stage), the ops between eager"},
    {"attention-out", ScopeKind::kAttentionOut,
     "every piece between attention ops captured, attention eager (vLLM's PIECEWISE)"},
    {"modules=REGEX", ScopeKind::kModules,
     "only the ops whose module path matches REGEX captured (Megatron's per-module scope)"},
    {"auto", ScopeKind::kAuto, "pieces around the ops that cannot be captured, those ops eager"},
    {"fwd-bwd", ScopeKind::kForwardBackward,
     "forward and backward captured, the optimizer eager (make_graphed_callables)"},
};

// The accepted scope names, comma-separated ("full, layer, ..."), for --help and messages.
std::string capture_scope_names();

}  // namespace graphbench
