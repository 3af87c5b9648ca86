/*
 * abi_checks.h — compile-time checks that the message-queue interface structures have
 * the layout debuggers expect on LP64 Linux (INTERFACES.md §1). Include it from C++ in
 * every component that passes these structures across the C ABI.
 */
#ifndef MPIDBG_ABI_CHECKS_H
#define MPIDBG_ABI_CHECKS_H

#include <cstddef>

#include "mpidbg/mqs_interface.h"

#if defined(__LP64__)
static_assert(sizeof(mqs_taddr_t) == 8, "mqs_taddr_t is 8 bytes on LP64");
static_assert(sizeof(mqs_tword_t) == 8, "mqs_tword_t is 8 bytes on LP64");
static_assert(sizeof(mqs_communicator) == 88, "mqs_communicator is 88 bytes");
static_assert(offsetof(mqs_communicator, unique_id) == 0, "unique_id first");
static_assert(offsetof(mqs_communicator, local_rank) == 8, "local_rank at 8");
static_assert(offsetof(mqs_communicator, size) == 16, "size at 16");
static_assert(offsetof(mqs_communicator, name) == 24, "name at 24");

static_assert(sizeof(mqs_pending_operation) == 416, "mqs_pending_operation is 416 bytes");
static_assert(offsetof(mqs_pending_operation, status) == 0, "status");
static_assert(offsetof(mqs_pending_operation, desired_local_rank) == 8, "desired_local_rank");
static_assert(offsetof(mqs_pending_operation, desired_global_rank) == 16, "desired_global_rank");
static_assert(offsetof(mqs_pending_operation, tag_wild) == 24, "tag_wild");
static_assert(offsetof(mqs_pending_operation, desired_tag) == 32, "desired_tag");
static_assert(offsetof(mqs_pending_operation, desired_length) == 40, "desired_length");
static_assert(offsetof(mqs_pending_operation, system_buffer) == 48, "system_buffer");
static_assert(offsetof(mqs_pending_operation, buffer) == 56, "buffer");
static_assert(offsetof(mqs_pending_operation, actual_local_rank) == 64, "actual_local_rank");
static_assert(offsetof(mqs_pending_operation, actual_global_rank) == 72, "actual_global_rank");
static_assert(offsetof(mqs_pending_operation, actual_tag) == 80, "actual_tag");
static_assert(offsetof(mqs_pending_operation, actual_length) == 88, "actual_length");
static_assert(offsetof(mqs_pending_operation, extra_text) == 96, "extra_text");

static_assert(offsetof(mqs_target_type_sizes, pointer_size) == 16, "Forum's five ints first");
static_assert(sizeof(mqs_basic_callbacks) == 8 * sizeof(void*), "eight basic callbacks");
static_assert(sizeof(mqs_image_callbacks) == 6 * sizeof(void*), "six image callbacks");
static_assert(sizeof(mqs_process_callbacks) == 4 * sizeof(void*), "four process callbacks");
#endif

static_assert(mqs_ok == 0 && mqs_no_information == 1 && mqs_end_of_list == 2 &&
                  mqs_first_user_code == 100,
              "result codes");
static_assert(mqs_st_pending == 0 && mqs_st_matched == 1 && mqs_st_complete == 2, "statuses");
static_assert(mqs_pending_sends == 0 && mqs_pending_receives == 1 &&
                  mqs_unexpected_messages == 2,
              "op classes");
static_assert(MQS_INTERFACE_COMPATIBILITY == 2, "compatibility level 2");

#endif /* MPIDBG_ABI_CHECKS_H */
