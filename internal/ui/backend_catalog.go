package ui

import "hostplan/internal/catalog"

// CatalogLister is what a Backend that knows the catalog in use adds: the
// form then offers the catalog's entries for the fields that name one
// (model preset, offers, node, partition, trial GPU). Without it those
// fields take any text, and the model names an unknown one.
type CatalogLister interface {
	// CatalogIDs lists the ids of one kind of catalog entry.
	CatalogIDs(kind catalog.Kind) ([]string, error)
}

var _ CatalogLister = appBackend{}

func (b appBackend) CatalogIDs(kind catalog.Kind) ([]string, error) {
	c, err := b.p.Catalog()
	if err != nil {
		return nil, err
	}
	return c.IDs(kind), nil
}
