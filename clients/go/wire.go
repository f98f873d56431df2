package sesame

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"syscall"
)

const (
	// maxRequestLine is the longest request line the daemon reads (bytes, without the newline).
	maxRequestLine = 65536
	// maxResponseLine is the longest line the daemon sends (bytes, without the newline).
	maxResponseLine = 1 << 20
	// maxInFlight is the number of requests in flight per connection (the daemon stops reading
	// beyond this).
	maxInFlight = 64
)

// message is one line from the daemon: an answer (ID set) or a notification (Method set).
type message struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
	Result json.RawMessage `json:"result"`
	Error  *wireError      `json:"error"`
}

// encodeRequest is one request line, or request-too-large before anything is sent.
func encodeRequest(id uint64, method string, params any) ([]byte, error) {
	encoded, err := json.Marshal(params)
	if err == nil && (string(encoded) == "null" || string(encoded) == "{}") {
		encoded = nil // no params: the member is left out
	} else if err == nil && encoded[0] != '{' {
		err = errors.New("params must encode as a JSON object")
	}
	var line []byte
	if err == nil {
		line, err = json.Marshal(struct {
			JSONRPC string          `json:"jsonrpc"`
			ID      uint64          `json:"id"`
			Method  string          `json:"method"`
			Params  json.RawMessage `json:"params,omitempty"`
		}{"2.0", id, method, encoded})
	}
	if err != nil {
		return nil, &Error{Code: -32602, Reason: ErrInvalidParams, Err: err,
			Message: fmt.Sprintf("the %s params cannot be encoded as JSON", method)}
	}
	if len(line) > maxRequestLine {
		return nil, &Error{Code: -32600, Reason: ErrRequestTooLarge, Message: fmt.Sprintf(
			"the %s request is %d bytes; sesamed reads at most %d: send shorter values", method, len(line), maxRequestLine)}
	}
	return append(line, '\n'), nil
}

// readMessage reads the next message, skipping blank lines; ErrInvalidResponse for a line
// that is not a JSON object or is over the protocol's limit, io.EOF when the daemon closed.
func readMessage(reader *bufio.Reader, socketPath string) (*message, error) {
	for {
		line, err := readLine(reader, socketPath)
		if err != nil {
			return nil, err
		}
		line = bytes.TrimSpace(line)
		if len(line) == 0 {
			continue
		}
		var m message
		if line[0] != '{' || json.Unmarshal(line, &m) != nil {
			return nil, clientError(ErrInvalidResponse, nil, "sesamed at %s sent a line that is not a JSON-RPC "+
				"message; check that the socket belongs to sesamed", socketPath)
		}
		return &m, nil
	}
}

func readLine(reader *bufio.Reader, socketPath string) ([]byte, error) {
	var line []byte
	for {
		chunk, err := reader.ReadSlice('\n')
		if len(line)+len(chunk) > maxResponseLine+1 {
			return nil, clientError(ErrInvalidResponse, nil, "sesamed at %s sent a line over %d bytes, the "+
				"protocol's limit; check that the socket belongs to sesamed", socketPath, maxResponseLine)
		}
		line = append(line, chunk...)
		switch {
		case err == nil:
			return line, nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF) && len(line) > 0:
			return nil, io.ErrUnexpectedEOF
		default:
			return nil, err
		}
	}
}

// connectError is ErrDaemonUnavailable for a failed connect, saying what to do next.
func connectError(err error, socketPath string) *Error {
	start := "start it: `systemctl start sesamed.socket` (system instance) or " +
		"`systemctl --user start sesamed.socket` (user instance), or set SESAME_SOCKET"
	switch {
	case errors.Is(err, syscall.ENOENT), errors.Is(err, syscall.ENOTDIR):
		return clientError(ErrDaemonUnavailable, err, "sesamed is not running: there is no socket at %s; %s",
			socketPath, start)
	case errors.Is(err, syscall.EACCES), errors.Is(err, syscall.EPERM):
		return clientError(ErrDaemonUnavailable, err, "you lack permission to use sesamed's socket at %s: "+
			"join the group `sesame` (then log in again) or ask an administrator to grant you access", socketPath)
	case errors.Is(err, syscall.ECONNREFUSED):
		return clientError(ErrDaemonUnavailable, err, "sesamed is not running: nothing listens at %s; %s",
			socketPath, start)
	}
	return clientError(ErrDaemonUnavailable, err, "cannot connect to sesamed at %s (%v)", socketPath, err)
}

func connectionLost(socketPath, method string) *Error {
	if method == "" {
		return clientError(ErrConnectionLost, nil, "the connection to sesamed at %s closed", socketPath)
	}
	return clientError(ErrConnectionLost, nil, "the connection to sesamed at %s closed before the answer to "+
		"%s; it may or may not have been carried out: read the state before repeating it", socketPath, method)
}
