// dwarf_crosscheck_fixture.cc — C++ types whose DWARF layouts the cross-check reads
// with both readers: classes with bases and static members, templates, namespaces,
// anonymous unions and structs, bitfields (skipped by the check), typedef chains,
// arrays, pointers, alignment padding. Built with -g into a shared library; one
// exported object keeps every type referenced.
#include <cstdint>

namespace xcheck {

struct Plain {
  char c;
  double d;  // padded to 8
  int16_t s;
};

class Base {
 public:
  virtual ~Base() = default;  // a vtable pointer first
  int base_value = 0;
  static int instances;  // no storage in the object
};
int Base::instances = 0;

class Derived : public Base {
 public:
  char tag[3];
  int64_t wide;
  union {
    int32_t as_int;
    float as_float;
  };
  struct {
    uint8_t r, g, b;
  } colour;
  struct {
    uint16_t anon_x;
    uint16_t anon_y;
  };
};

struct WithBits {
  uint32_t flags : 3;
  uint32_t mode : 5;
  uint32_t : 0;
  uint64_t after_bits;
  uint8_t tail : 1;
};

template <typename T, int N>
struct Ring {
  T slots[N];
  uint32_t head;
  uint32_t tail;
};

namespace inner {
struct Nested {
  Ring<int16_t, 5> ring;
  Plain plains[2];
  const volatile Plain* link;
};
}  // namespace inner

typedef Plain PlainAlias;
typedef PlainAlias PlainAlias2;
typedef const PlainAlias2 ConstPlainAlias;
typedef inner::Nested NestedAlias;
typedef int32_t IntArray7[7];
typedef Derived* DerivedPointer;
typedef void (*Callback)(int);

struct alignas(32) Aligned {
  char first;
  int second;
};

struct Everything {
  Plain plain;
  Derived derived;
  WithBits bits;
  Ring<double, 3> ring;
  inner::Nested nested;
  PlainAlias2 alias;
  ConstPlainAlias* const_alias;
  NestedAlias nested_alias;
  IntArray7 seven;
  DerivedPointer derived_ptr;
  Callback callback;
  Aligned aligned;
};

}  // namespace xcheck

extern "C" {
xcheck::Everything mpidbg_xcheck_everything_cxx;
}
