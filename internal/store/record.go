package store

import (
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// record is a scenario's entry in the scenarios bucket: what the list shows
// and where the current revision is. It is an index over the revisions,
// rewritten by every save; the revisions are the content.
type record struct {
	Name    string
	Shape   string
	Current int // number of the current revision
	Deleted bool
	Updated time.Time // time of the current revision
	// Hash is the input hash (hex) of the current revision, so a save can
	// tell an unchanged scenario without reading the revision. Empty in a
	// layout 1 record.
	Hash string
}

// Since layout 2 a record is binary, because List decodes one per scenario
// and encoding/json took most of its time (10,000 scenarios: about 20 ms of
// JSON against 1 ms of this):
//
//	byte    recordFormat
//	byte    flags (flagDeleted)
//	uvarint current revision
//	varint  updated, Unix seconds
//	uvarint updated, nanoseconds
//	uvarint len(name), name
//	uvarint len(shape), shape
//	32 bytes input hash of the current revision (sha256)
//
// Layout 1 wrote the record as a JSON object; decodeRecord still reads that
// (a read-only open of a layout 1 store) and the upgrade to layout 2
// rewrites it.
const (
	recordFormat = 1
	flagDeleted  = 1 << 0
)

// legacyRecord is the layout 1 JSON record.
type legacyRecord struct {
	Name    string    `json:"name"`
	Shape   string    `json:"shape"`
	Current int       `json:"current"`
	Deleted bool      `json:"deleted,omitempty"`
	Updated time.Time `json:"updated"`
}

func encodeRecord(r record) ([]byte, error) {
	hash, err := hex.DecodeString(r.Hash)
	if err != nil || len(hash) != 32 {
		return nil, fmt.Errorf("record: input hash %q is not a sha256", r.Hash)
	}
	b := make([]byte, 0, 2+3*binary.MaxVarintLen64+2+len(r.Name)+len(r.Shape)+32)
	var flags byte
	if r.Deleted {
		flags |= flagDeleted
	}
	b = append(b, recordFormat, flags)
	b = binary.AppendUvarint(b, uint64(r.Current))
	b = binary.AppendVarint(b, r.Updated.Unix())
	b = binary.AppendUvarint(b, uint64(r.Updated.Nanosecond()))
	b = binary.AppendUvarint(b, uint64(len(r.Name)))
	b = append(b, r.Name...)
	b = binary.AppendUvarint(b, uint64(len(r.Shape)))
	b = append(b, r.Shape...)
	return append(b, hash...), nil
}

var errRecordShort = errors.New("record is cut short")

func decodeRecord(b []byte) (record, error) {
	var r record
	if len(b) > 0 && b[0] == '{' {
		var l legacyRecord
		if err := json.Unmarshal(b, &l); err != nil {
			return r, err
		}
		return record{Name: l.Name, Shape: l.Shape, Current: l.Current, Deleted: l.Deleted, Updated: l.Updated}, nil
	}
	if len(b) < 2 {
		return r, errRecordShort
	}
	if b[0] != recordFormat {
		return r, fmt.Errorf("record format %d is not known", b[0])
	}
	r.Deleted = b[1]&flagDeleted != 0
	b = b[2:]
	uvarint := func() uint64 {
		v, n := binary.Uvarint(b)
		if n <= 0 {
			b = nil
			return 0
		}
		b = b[n:]
		return v
	}
	str := func() (string, bool) {
		n := uvarint()
		if b == nil || n > uint64(len(b)) {
			return "", false
		}
		s := string(b[:n])
		b = b[n:]
		return s, true
	}
	cur := uvarint()
	if b == nil || cur > 1<<32 {
		return r, errRecordShort
	}
	r.Current = int(cur)
	sec, n := binary.Varint(b)
	if n <= 0 {
		return r, errRecordShort
	}
	b = b[n:]
	nsec := uvarint()
	if b == nil || nsec >= 1e9 {
		return r, errRecordShort
	}
	r.Updated = time.Unix(sec, int64(nsec)).UTC()
	var ok bool
	if r.Name, ok = str(); !ok {
		return r, errRecordShort
	}
	if r.Shape, ok = str(); !ok {
		return r, errRecordShort
	}
	if len(b) != 32 {
		return r, fmt.Errorf("record ends in %d bytes, want a 32-byte hash", len(b))
	}
	r.Hash = hex.EncodeToString(b)
	return r, nil
}
