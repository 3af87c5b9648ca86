/* dwarf_crosscheck_fixture_c.c — C types for the DWARF cross-check: a struct and a
 * typedef of the same name, typedef chains to incomplete and complete types, C11
 * anonymous members, flexible array members, unions, enums, bitfields. */
#include <stdint.h>

typedef struct c_node c_node; /* the typedef and the struct share the name */
struct c_node {
  c_node* next;
  int32_t key;
  char label[13];
};

typedef struct c_opaque c_opaque; /* never completed here */
typedef c_opaque* c_opaque_handle;

typedef c_node c_node_alias;
typedef volatile c_node_alias c_node_volatile;

enum c_colour { C_RED = 1, C_GREEN = 2 };
typedef enum c_colour c_colour_t;

union c_value {
  int64_t i;
  double d;
  char bytes[12];
};

struct c_packet {
  uint16_t kind;
  union {
    uint32_t seq;
    struct {
      uint16_t seq_lo;
      uint16_t seq_hi;
    };
  };
  unsigned int urgent : 1;
  unsigned int : 7;
  c_colour_t colour;
  union c_value value;
  uint32_t length;
  unsigned char payload[]; /* flexible: no size of its own */
};

struct c_all {
  c_node node;
  c_opaque_handle opaque;
  c_node_volatile vol;
  struct c_packet* packet;
  union c_value values[3];
};

struct c_all mpidbg_xcheck_everything_c;
