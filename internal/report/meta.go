package report

import "github.com/jvmfit/jvmfit/internal/store"

// MetaOf describes a stored experiment for the report header.
func MetaOf(e store.Experiment) Meta {
	return Meta{ID: e.ID, Name: e.Name, Kind: e.Kind, Created: e.Created, Ended: e.Ended}
}
