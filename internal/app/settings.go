package app

import (
	"errors"

	"hostplan/internal/store"
)

// Settings are the user's preferences kept in the store beside the
// scenarios (the window's size, zoom, theme and last scenario), each a
// string under a key that its face chooses.

// Setting returns the value of setting key and whether it was ever set.
func (p *Planner) Setting(key string) (value string, ok bool, err error) {
	var v string
	err = p.read(func(st *store.Store) (err error) {
		v, err = st.GetSetting(key)
		return err
	})
	if errors.Is(err, store.ErrNotFound) {
		return "", false, nil
	}
	if err != nil {
		return "", false, err
	}
	return v, true, nil
}

// SetSetting sets setting key to value, replacing the one before.
func (p *Planner) SetSetting(key, value string) error {
	return p.using(func(st *store.Store) error { return st.PutSetting(key, value) })
}
