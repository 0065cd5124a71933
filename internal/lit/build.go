package lit

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
)

// goTool returns the go command of the running toolchain, or "go".
func goTool() string {
	p := filepath.Join(runtime.GOROOT(), "bin", "go")
	if _, err := os.Stat(p); err == nil {
		return p
	}
	return "go"
}

// BuildBinaries builds every command under moduleRoot/cmd into binDir
// (`go build -o binDir ./cmd/...`), then installs filecheck also as
// FileCheck so RUN lines written for LLVM resolve to it, and otir-lit as
// count (otir-lit acts as LLVM's count when called by that name). If the combined
// build fails (say, one command does not compile), each command is built on
// its own so the others remain usable; the returned log tells what failed.
func BuildBinaries(moduleRoot, binDir string) (log string, err error) {
	if err := os.MkdirAll(binDir, 0o755); err != nil {
		return "", err
	}
	run := func(args ...string) (string, error) {
		cmd := exec.Command(goTool(), args...)
		cmd.Dir = moduleRoot
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	out, err := run("build", "-o", binDir+string(os.PathSeparator), "./cmd/...")
	if err != nil {
		log = "go build ./cmd/... failed:\n" + out
		dirs, _ := filepath.Glob(filepath.Join(moduleRoot, "cmd", "*"))
		var failed []string
		for _, d := range dirs {
			if st, e := os.Stat(d); e != nil || !st.IsDir() {
				continue
			}
			name := filepath.Base(d)
			if o, e := run("build", "-o", filepath.Join(binDir, name), "./cmd/"+name); e != nil {
				failed = append(failed, name)
				log += fmt.Sprintf("building cmd/%s failed:\n%s", name, o)
			}
		}
		err = nil
		if len(failed) > 0 {
			err = fmt.Errorf("could not build: %s", strings.Join(failed, ", "))
		}
	}
	if _, e := os.Stat(filepath.Join(binDir, "filecheck")); e == nil {
		fc := filepath.Join(binDir, "FileCheck")
		os.Remove(fc)
		if e := os.Symlink("filecheck", fc); e != nil && err == nil {
			err = e
		}
	}
	if _, e := os.Stat(filepath.Join(binDir, "otir-lit")); e == nil {
		c := filepath.Join(binDir, "count")
		os.Remove(c)
		if e := os.Symlink("otir-lit", c); e != nil && err == nil {
			err = e
		}
	}
	return log, err
}

// Binaries lists the executables in binDir.
func Binaries(binDir string) []string {
	entries, _ := os.ReadDir(binDir)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}
