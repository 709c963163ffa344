#pragma once
// The row of a validate comparison with a given id; a missing row fails the test case.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "analysis/validation/comparison.hpp"

namespace sonicsim::test {

inline const validation::ValidationRow& row_with_id(const std::vector<validation::ValidationRow>& rows,
                                                    const std::string& id) {
  for (const auto& r : rows)
    if (r.id == id) return r;
  FAIL("no row " << id);
  return rows.front();
}

}  // namespace sonicsim::test
