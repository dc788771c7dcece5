package scaffold

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/jvmfit/jvmfit/internal/app"
	"github.com/jvmfit/jvmfit/internal/detect"
	"github.com/jvmfit/jvmfit/internal/trial"
)

// Request is `jvmfit init`'s flags as given: the app (one of a jar, an
// image or a command line) and what the files should say.
type Request struct {
	Jar, Image, Command string
	Name, Out, SLO      string
	Java, Engine        string
	Gets, Args, Env     []string
	Rate                float64
	ReadyTimeout        time.Duration
}

// Input reads r into what Write needs, detecting the framework; every
// input error comes out here, before anything is written.
func (r Request) Input(ctx context.Context) (Input, error) {
	in := Input{Gets: r.Gets, Rate: r.Rate, SLO: r.SLO, Args: r.Args, ReadyTimeout: r.ReadyTimeout, Dir: r.Out, Name: r.Name}
	if err := r.check(); err != nil {
		return in, err
	}
	var err error
	if in.Env, err = ParseEnv(r.Env); err != nil {
		return in, err
	}
	switch {
	case r.Jar != "":
		in.Jar = r.Jar
		if in.Found, err = detect.Jar(r.Jar); err != nil {
			return in, fmt.Errorf("--jar %w", err)
		}
		in.Name = nameOr(r.Name, strings.TrimSuffix(filepath.Base(r.Jar), ".jar"))
		if in.Found != nil {
			in.Name = nameOr(r.Name, jarName(r.Jar, in.Found)) // quarkus-run.jar: its project's folder names it
		}
	case r.Image != "":
		in.Image = r.Image
		if r.Java != "" {
			return in, errors.New("--java is for --jar and --command: an image runs its own JDK")
		}
		dctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
		in.Found, err = DetectImageOn(dctx, r.Engine, r.Image)
		cancel()
		in.Name = nameOr(r.Name, imageName(r.Image))
	default:
		in.Command = strings.Fields(r.Command)
		in.Found, err = commandFound(in.Command)
		in.Name = nameOr(r.Name, "app")
		if jar := app.CommandJar(in.Command); jar != "" {
			in.Name = nameOr(r.Name, strings.TrimSuffix(filepath.Base(jar), ".jar"))
		}
	}
	if err != nil {
		return in, err
	}
	if in.Image == "" {
		err = PickJava(&in, r.Java)
	}
	return in, err
}

// check refuses what needs no detection: the app given other than once,
// a bad --get, rate, timeout or SLO.
func (r Request) check() error {
	given := 0
	for _, s := range []string{r.Jar, r.Image, r.Command} {
		if s != "" {
			given++
		}
	}
	if given != 1 {
		return errors.New("give one of --jar app.jar, --image NAME or --command \"java -jar app.jar ...\"")
	}
	if err := CheckGets(r.Gets); err != nil {
		return err
	}
	if r.Rate <= 0 {
		return fmt.Errorf("--rate %g: give a rate above 0 req/s", r.Rate)
	}
	if r.ReadyTimeout <= 0 {
		return fmt.Errorf("--ready-timeout %s: give a duration above 0", r.ReadyTimeout)
	}
	if _, err := trial.ParseSLO(r.SLO); err != nil {
		return fmt.Errorf("--slo: %w", err)
	}
	return nil
}

// commandFound detects the jar a command runs with -jar, if any.
func commandFound(argv []string) (*detect.Result, error) {
	if jar := app.CommandJar(argv); jar != "" {
		return detect.Jar(jar)
	}
	return detect.Guess("the command runs no -jar"), nil
}

func nameOr(name, fallback string) string {
	if name != "" {
		return name
	}
	return fallback
}
