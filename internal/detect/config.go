package detect

import (
	"archive/zip"
	"fmt"
	"io"
	"io/fs"
	"path"
	"sort"
	"strings"
)

// Config is the app's own configuration as its jar holds it: the keys of
// its application.properties and application.yml/.yaml (and the default
// profile's), flattened, later files over earlier ones, each key with the
// file it came from. What could not be read is in Ignored, one line each.
type Config struct {
	values  map[string]string
	from    map[string]string
	Ignored []string
}

// Get is a key's value with its file; ok false when the app does not set it.
func (c *Config) Get(key string) (value, file string, ok bool) {
	v, ok := c.values[key]
	return v, c.from[key], ok
}

// set merges one file's keys over what is there.
func (c *Config) set(file string, kv map[string]string) {
	for k, v := range kv {
		c.values[k] = v
		c.from[k] = file
	}
}

// configSource is one configuration file in the jar (or beside it), with
// how it is read.
type configSource struct {
	name string
	yaml bool
}

// springFiles are Spring Boot's, lowest precedence first: YAML, then
// .properties (which wins at the same place); then come the active
// profiles' (springProfileFiles).
var springFiles = []configSource{{"application.yml", true}, {"application.yaml", true}, {"application.properties", false}}

// springProfileFiles are a profile's files: the profiles the jar's own
// configuration activates (spring.profiles.active), else "default".
func springProfileFiles(c *Config) []configSource {
	profiles := []string{"default"}
	if v, _, ok := c.Get("spring.profiles.active"); ok && strings.TrimSpace(v) != "" && !strings.Contains(v, "${") {
		profiles = strings.Split(v, ",")
	}
	var out []configSource
	for _, p := range profiles {
		p = strings.TrimSpace(p)
		out = append(out, configSource{"application-" + p + ".yml", true}, configSource{"application-" + p + ".yaml", true}, configSource{"application-" + p + ".properties", false})
	}
	return out
}

// quarkusFiles: application.properties, under application.yaml (the
// quarkus-config-yaml extension's, which ranks higher).
var quarkusFiles = []configSource{{"application.properties", false}, {"application.yml", true}, {"application.yaml", true}}

// micronautFiles and helidonFiles: the classpath root's.
var micronautFiles = []configSource{{"application.properties", false}, {"application.yml", true}, {"application.yaml", true}}
var helidonFiles = []configSource{{"META-INF/microprofile-config.properties", false}, {"application.properties", false}, {"application.yml", true}, {"application.yaml", true}}

// readConfig reads the framework's configuration files from the jar: a
// Spring Boot fat jar's are under BOOT-INF/classes/, Quarkus's fast-jar
// keeps them in the application's jar in app/ beside quarkus-run.jar.
func readConfig(j *jar, f Framework) *Config {
	c := &Config{values: map[string]string{}, from: map[string]string{}}
	switch f {
	case SpringBoot:
		root := ""
		if j.hasPrefix("BOOT-INF/classes/") {
			root = "BOOT-INF/classes/"
		}
		c.readFrom(j.files, root, springFiles)
		c.readFrom(j.files, root, springProfileFiles(c))
	case Quarkus:
		c.readFrom(j.files, "", quarkusFiles)
		c.readQuarkusApp(j)
	case Micronaut:
		c.readFrom(j.files, "", micronautFiles)
	case Helidon:
		c.readFrom(j.files, "", helidonFiles)
	}
	return c
}

func (c *Config) readFrom(files fs.FS, root string, sources []configSource) {
	c.readPrefixed(files, root, "", sources)
}

// readPrefixed reads sources under root in files, naming each file with
// label before its path ("app/x.jar!/" for a jar beside the runner).
func (c *Config) readPrefixed(files fs.FS, root, label string, sources []configSource) {
	for _, s := range sources {
		name := root + s.name
		f, err := files.Open(name)
		if err != nil {
			continue // the app has no such file
		}
		var kv map[string]string
		if s.yaml {
			kv, err = ReadYAML(f)
		} else {
			kv, err = ReadProperties(f)
		}
		f.Close()
		if err != nil {
			c.Ignored = append(c.Ignored, fmt.Sprintf("%s%s: %s", label, name, oneLine(err.Error())))
			continue
		}
		c.set(label+name, kv)
	}
}

// readQuarkusApp reads the application's jar in Quarkus's fast-jar
// layout: quarkus-app/app/NAME.jar, where application.properties is.
func (c *Config) readQuarkusApp(j *jar) {
	if j.fsys == nil {
		return
	}
	dir := path.Join(j.dir, "app")
	des, err := fs.ReadDir(j.fsys, dir)
	if err != nil {
		return
	}
	var jars []string
	for _, de := range des {
		if strings.HasSuffix(de.Name(), ".jar") {
			jars = append(jars, de.Name())
		}
	}
	sort.Strings(jars)
	for _, name := range jars {
		label := "app/" + name + "!/"
		zr, closeJar, err := openZip(j.fsys, path.Join(dir, name))
		if err != nil {
			c.Ignored = append(c.Ignored, fmt.Sprintf("app/%s: %s", name, oneLine(err.Error())))
			continue
		}
		c.readPrefixed(zr, "", label, quarkusFiles)
		closeJar()
	}
}

// openZip opens a jar in fsys as a zip.
func openZip(fsys fs.FS, name string) (*zip.Reader, func(), error) {
	f, err := fsys.Open(name)
	if err != nil {
		return nil, nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	ra, ok := f.(io.ReaderAt)
	if !ok {
		f.Close()
		return nil, nil, fmt.Errorf("cannot be read as a zip")
	}
	zr, err := zip.NewReader(ra, st.Size())
	if err != nil {
		f.Close()
		return nil, nil, fmt.Errorf("not a jar (%v)", err)
	}
	return zr, func() { f.Close() }, nil
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
