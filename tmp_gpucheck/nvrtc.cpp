#include <nvrtc.h>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
int main(int argc, char** argv) {
  int fails = 0;
  for (int i = 1; i < argc; i++) {
    std::ifstream f(argv[i]); std::stringstream ss; ss << f.rdbuf(); std::string src = ss.str();
    nvrtcProgram p; nvrtcCreateProgram(&p, src.c_str(), argv[i], 0, nullptr, nullptr);
    const char* opts[] = {"--gpu-architecture=sm_90", "-lineinfo"};
    nvrtcResult r = nvrtcCompileProgram(p, 2, opts);
    size_t n; nvrtcGetProgramLogSize(p, &n); std::string log(n, 0); nvrtcGetProgramLog(p, &log[0]);
    printf("nvrtc %s: %s\n%s\n", argv[i], nvrtcGetErrorString(r), r ? log.c_str() : "");
    fails += r != NVRTC_SUCCESS; nvrtcDestroyProgram(&p);
  }
  return fails;
}
