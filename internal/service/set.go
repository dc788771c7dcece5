//go:build linux

package service

import (
	"context"
	"errors"

	"github.com/jvmfit/jvmfit/internal/app"
)

// Set is every service of one app, started in declaration order.
type Set struct {
	items []Instance
}

// StartAll starts the services in order; if one fails, those already
// started are stopped before the error is returned.
func StartAll(ctx context.Context, svcs []app.Service, o Options) (*Set, error) {
	set := &Set{}
	for _, s := range svcs {
		in, err := Start(ctx, s, o)
		if err != nil {
			set.Stop()
			return nil, err
		}
		set.items = append(set.items, in)
	}
	return set, nil
}

// Exports merges every service's exports.
func (s *Set) Exports() map[string]string {
	out := map[string]string{}
	for _, in := range s.items {
		for k, v := range in.Exports() {
			out[k] = v
		}
	}
	return out
}

// Instances lists the running services in start order.
func (s *Set) Instances() []Instance { return s.items }

// Stop stops the services in reverse order and returns their footprints
// in start order. Safe to call many times.
func (s *Set) Stop() ([]Usage, error) {
	if s == nil {
		return nil, nil
	}
	us := make([]Usage, len(s.items))
	var errs []error
	for i := len(s.items) - 1; i >= 0; i-- {
		u, err := s.items[i].Stop()
		us[i] = u
		errs = append(errs, err)
	}
	return us, errors.Join(errs...)
}
