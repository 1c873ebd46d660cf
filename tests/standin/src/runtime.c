/* libascendcl stand-in: device memory is host memory; streams run synchronously. */
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"

static int initialised = 0;
static int stream_token = 0;

aclError aclInit(const char* configPath) {
  (void)configPath;
  initialised = 1;
  return ACL_SUCCESS;
}

aclError aclFinalize(void) {
  initialised = 0;
  return ACL_SUCCESS;
}

aclError aclrtSetDevice(int32_t deviceId) { return deviceId == 0 && initialised ? ACL_SUCCESS : ACL_ERROR_INVALID_PARAM; }
aclError aclrtResetDevice(int32_t deviceId) { return deviceId == 0 ? ACL_SUCCESS : ACL_ERROR_INVALID_PARAM; }

aclError aclrtCreateContext(aclrtContext* context, int32_t deviceId) {
  (void)deviceId;
  if (context == NULL) return ACL_ERROR_INVALID_PARAM;
  *context = &stream_token;
  return ACL_SUCCESS;
}

aclError aclrtDestroyContext(aclrtContext context) { return context ? ACL_SUCCESS : ACL_ERROR_INVALID_PARAM; }
aclError aclrtSetCurrentContext(aclrtContext context) { return context ? ACL_SUCCESS : ACL_ERROR_INVALID_PARAM; }

aclError aclrtCreateStream(aclrtStream* stream) {
  if (stream == NULL) return ACL_ERROR_INVALID_PARAM;
  *stream = &stream_token;
  return ACL_SUCCESS;
}

aclError aclrtDestroyStream(aclrtStream stream) { return stream ? ACL_SUCCESS : ACL_ERROR_INVALID_PARAM; }
aclError aclrtSynchronizeStream(aclrtStream stream) { return stream ? ACL_SUCCESS : ACL_ERROR_INVALID_PARAM; }

aclError aclrtMalloc(void** devPtr, size_t size, aclrtMemMallocPolicy policy) {
  (void)policy;
  if (devPtr == NULL || size == 0) return ACL_ERROR_INVALID_PARAM;
  *devPtr = calloc(1, size);
  return *devPtr ? ACL_SUCCESS : ACL_ERROR_BAD_ALLOC;
}

aclError aclrtFree(void* devPtr) {
  free(devPtr);
  return ACL_SUCCESS;
}

aclError aclrtMemcpy(void* dst, size_t destMax, const void* src, size_t count, aclrtMemcpyKind kind) {
  (void)kind;
  if (dst == NULL || src == NULL || count > destMax) return ACL_ERROR_INVALID_PARAM;
  memmove(dst, src, count);
  return ACL_SUCCESS;
}
