#pragma once
// std::visit with one lambda per alternative: std::visit(Overloaded{[](int) {...}, [](const X&) {...}}, v).

namespace sonicsim {

template <class... Ts>
struct Overloaded : Ts... {
  using Ts::operator()...;
};
template <class... Ts>
Overloaded(Ts...) -> Overloaded<Ts...>;  // clang before 17 does not deduce aggregate arguments by itself

}  // namespace sonicsim
