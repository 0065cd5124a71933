package lit

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

// Suite is a tree of tests and its configuration: the recognised subset of
// a lit.cfg.py (or lit.cfg) at its root and of the lit.local.cfg files
// below, or the project's defaults when there is none.
type Suite struct {
	Name          string
	Root          string          // absolute
	Config        string          // the lit.cfg.py read, or ""
	Suffixes      []string        // nil: the extensions registered in Suffixes
	Excludes      map[string]bool // file and directory names skipped; nil: SkipDirs
	Substitutions []Subst         // from the configs, in order
	Features      []string        // config.available_features.add(...)
	// Anywhere is LLVM lit's rule for directives: a keyword anywhere on a
	// line, without a comment marker. LoadSuite sets it for a suite with a
	// lit config; without one, the project's registered extensions need
	// their comment markers (lit.Suffixes).
	Anywhere bool
	local    map[string]*cfgFile
}

// cfgFile is what a lit config file says, as far as otir-lit reads it:
//
//	config.name = "name"
//	config.suffixes = [".txt", ".ll"]
//	config.excludes = ["Inputs", "README.txt"]
//	config.substitutions.append(("%key", "value"))
//	config.available_features.add("feature")
//
// Other lines (Python) are ignored.
type cfgFile struct {
	name          string
	suffixes      []string
	excludes      []string
	substitutions []Subst
	features      []string
}

const pyStr = `(?:'([^']*)'|"([^"]*)")`

var (
	cfgNameRE     = regexp.MustCompile(`(?m)^\s*config\.name\s*=\s*` + pyStr)
	cfgSuffixesRE = regexp.MustCompile(`(?m)^\s*config\.suffixes\s*=\s*[\[(]([^\])]*)[\])]`)
	cfgExcludesRE = regexp.MustCompile(`(?m)^\s*config\.excludes\s*=\s*[\[(]([^\])]*)[\])]`)
	cfgSubstRE    = regexp.MustCompile(`(?m)^\s*config\.substitutions\.append\(\s*\(\s*` + pyStr + `\s*,\s*` + pyStr + `\s*\)\s*\)`)
	cfgFeatureRE  = regexp.MustCompile(`(?m)^\s*config\.available_features\.add\(\s*` + pyStr + `\s*\)`)
	pyStrRE       = regexp.MustCompile(pyStr)
)

func strOf(m []string, i int) string { return m[i] + m[i+1] }

// ParseCfg reads the recognised subset of a lit config file.
func parseCfg(src string) *cfgFile {
	c := &cfgFile{}
	if m := cfgNameRE.FindStringSubmatch(src); m != nil {
		c.name = strOf(m, 1)
	}
	list := func(re *regexp.Regexp) []string {
		m := re.FindStringSubmatch(src)
		if m == nil {
			return nil
		}
		out := []string{}
		for _, s := range pyStrRE.FindAllStringSubmatch(m[1], -1) {
			out = append(out, strOf(s, 1))
		}
		return out
	}
	c.suffixes = list(cfgSuffixesRE)
	c.excludes = list(cfgExcludesRE)
	for _, m := range cfgSubstRE.FindAllStringSubmatch(src, -1) {
		c.substitutions = append(c.substitutions, Subst{strOf(m, 1), strOf(m, 3)})
	}
	for _, m := range cfgFeatureRE.FindAllStringSubmatch(src, -1) {
		c.features = append(c.features, strOf(m, 1))
	}
	return c
}

// LoadSuite finds the suite that holds path (a test file or directory):
// the nearest directory at or above it with a lit.cfg.py or lit.cfg. With
// none, the suite is path itself (its directory, for a file) with the
// project's defaults.
func LoadSuite(path string) (*Suite, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	st, err := os.Stat(abs)
	if err != nil {
		return nil, err
	}
	dir := abs
	if !st.IsDir() {
		dir = filepath.Dir(abs)
	}
	s := &Suite{local: map[string]*cfgFile{}}
	for d := dir; ; d = filepath.Dir(d) {
		for _, name := range []string{"lit.cfg.py", "lit.cfg"} {
			if b, err := os.ReadFile(filepath.Join(d, name)); err == nil {
				c := parseCfg(string(b))
				s.Root, s.Config, s.Name, s.Anywhere = d, filepath.Join(d, name), c.name, true
				s.Suffixes, s.Substitutions, s.Features = c.suffixes, c.substitutions, c.features
				if c.excludes != nil {
					s.Excludes = map[string]bool{}
					for _, e := range c.excludes {
						s.Excludes[e] = true
					}
				}
				break
			}
		}
		if s.Root != "" || filepath.Dir(d) == d {
			break
		}
	}
	if s.Root == "" {
		s.Root = dir
	}
	if s.Name == "" {
		s.Name = filepath.Base(s.Root)
	}
	return s, nil
}

// Markers are the comment markers that must open a directive in the test
// file path, or nil when directives may be anywhere on a line.
func (s *Suite) Markers(path string) []string {
	if s.Anywhere {
		return nil
	}
	return Suffixes[filepath.Ext(path)]
}

// localCfg is the lit.local.cfg of directory dir, or nil.
func (s *Suite) localCfg(dir string) *cfgFile {
	if c, ok := s.local[dir]; ok {
		return c
	}
	var c *cfgFile
	if b, err := os.ReadFile(filepath.Join(dir, "lit.local.cfg")); err == nil {
		c = parseCfg(string(b))
	}
	s.local[dir] = c
	return c
}

// TestSubstitutions are the configured substitutions for the test file
// path: the suite's, then those of each lit.local.cfg from the root down.
func (s *Suite) TestSubstitutions(path string) []Subst {
	out := append([]Subst(nil), s.Substitutions...)
	rel, err := filepath.Rel(s.Root, filepath.Dir(path))
	if err != nil || strings.HasPrefix(rel, "..") {
		return out
	}
	dirs := []string{s.Root}
	if rel != "." {
		d := s.Root
		for _, part := range strings.Split(rel, string(filepath.Separator)) {
			d = filepath.Join(d, part)
			dirs = append(dirs, d)
		}
	}
	for _, d := range dirs {
		if c := s.localCfg(d); c != nil {
			out = append(out, c.substitutions...)
		}
	}
	return out
}

// Discover lists the test files under root (registered extensions only,
// outside SkipDirs), sorted by path.
func Discover(root string) ([]string, error) {
	return DiscoverWith(root, nil, nil)
}

// DiscoverWith lists the files under root (or root itself, a file) whose
// names end in one of suffixes (nil: the registered Suffixes), skipping
// hidden names, lit config files and the names in excludes (nil: SkipDirs
// for directories), sorted by path.
func DiscoverWith(root string, suffixes []string, excludes map[string]bool) ([]string, error) {
	if excludes == nil {
		excludes = SkipDirs
	}
	match := func(name string) bool {
		if suffixes == nil {
			_, ok := Suffixes[filepath.Ext(name)]
			return ok
		}
		for _, suf := range suffixes {
			if strings.HasSuffix(name, suf) {
				return true
			}
		}
		return false
	}
	var files []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if path == root {
			if !d.IsDir() {
				files = append(files, path)
			}
			return nil
		}
		if excludes[name] || strings.HasPrefix(name, ".") {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if d.IsDir() || name == "lit.cfg.py" || name == "lit.cfg" || name == "lit.local.cfg" {
			return nil
		}
		if match(name) {
			files = append(files, path)
		}
		return nil
	})
	sort.Strings(files)
	return files, err
}
