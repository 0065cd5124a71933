package filecheck

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// recordedConformance is how many of the 75 tests of LLVM's own FileCheck
// suite (../shared/conformance/filecheck) pass with cmd/filecheck. The test
// fails if the count drops; raise it when it improves.
const recordedConformance = 75

func TestLLVMConformance(t *testing.T) {
	script, _ := filepath.Abs(filepath.Join("..", "..", "..", "shared", "conformance", "filecheck", "run.sh"))
	if _, err := os.Stat(script); err != nil {
		t.Skip("LLVM FileCheck conformance suite not present:", err)
	}
	if testing.Short() {
		t.Skip("skipped in -short mode")
	}
	bin := filepath.Join(t.TempDir(), "filecheck")
	goTool := filepath.Join(runtime.GOROOT(), "bin", "go")
	if _, err := os.Stat(goTool); err != nil {
		goTool = "go"
	}
	build := exec.Command(goTool, "build", "-o", bin, "github.com/otir-dev/otir/cmd/filecheck")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building cmd/filecheck: %v\n%s", err, out)
	}
	// Run the corpus in two halves at once: run.sh is sequential and the
	// time goes into starting processes.
	corpus := filepath.Join(filepath.Dir(script), "corpus")
	var tests []string
	filepath.WalkDir(corpus, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".txt") && d.Name() != "README.txt" && !strings.Contains(p, "/Inputs/") {
			tests = append(tests, p)
		}
		return nil
	})
	sort.Strings(tests)
	halves := [][]string{tests[:len(tests)/2], tests[len(tests)/2:]}
	outs := make([][]byte, len(halves))
	var wg sync.WaitGroup
	for i, h := range halves {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cmd := exec.Command("bash", append([]string{script}, h...)...)
			cmd.Env = append(os.Environ(), "FILECHECK="+bin)
			outs[i], _ = cmd.CombinedOutput() // run.sh exits 1 when any test fails
		}()
	}
	wg.Wait()
	out := append(outs[0], outs[1]...)
	pass, total := 0, 0
	for _, m := range regexp.MustCompile(`SUMMARY: (\d+) pass, (\d+) fail, (\d+) skip`).FindAllSubmatch(out, -1) {
		for k := 1; k <= 3; k++ {
			n, _ := strconv.Atoi(string(m[k]))
			total += n
			if k == 1 {
				pass += n
			}
		}
	}
	if total != len(tests) || len(tests) == 0 {
		t.Fatalf("run.sh reported %d results for %d tests:\n%s", total, len(tests), out)
	}
	t.Logf("SUMMARY: %d of %d LLVM FileCheck tests pass", pass, len(tests))
	if pass < recordedConformance {
		var failed []string
		for _, line := range strings.Split(string(out), "\n") {
			if strings.HasPrefix(line, "FAIL") {
				failed = append(failed, line)
			}
		}
		t.Errorf("conformance dropped: %d pass, recorded %d; failing:\n%s", pass, recordedConformance, strings.Join(failed, "\n"))
	}
}
