package main

import (
	"bytes"
	"fmt"
	"go/format"
	"strings"
)

// methodsPerFile keeps each generated file short (the house's 300 lines).
const methodsPerFile = 8

// results maps api/local-api.json's result names to this package's types; a name not here
// decodes into json.RawMessage.
var results = map[string]string{
	"State": "State", "SignInResult": "SignInResult", "Hello": "Hello", "Token": "IDToken",
	"SignInFlow": "SignInFlow", "UsernameAvailability": "UsernameAvailability",
	"TotpEnrollment": "TotpEnrollment", "Reauthentication": "Reauthentication",
}

func renderMethods(api *apiFile) ([][]byte, error) {
	var chunks [][]byte
	var methods []method
	for _, m := range api.Methods {
		if m.generated() {
			methods = append(methods, m)
		}
	}
	for start := 0; start < len(methods); start += methodsPerFile {
		end := start + methodsPerFile
		if end > len(methods) {
			end = len(methods)
		}
		var body bytes.Buffer
		for _, m := range methods[start:end] {
			renderMethod(&body, m)
		}
		var b bytes.Buffer
		fmt.Fprintf(&b, banner, "api/local-api.json")
		if bytes.Contains(body.Bytes(), []byte("json.RawMessage")) {
			b.WriteString("package sesame\n\nimport (\n\t\"context\"\n\t\"encoding/json\"\n)\n\n")
		} else {
			b.WriteString("package sesame\n\nimport \"context\"\n\n")
		}
		b.Write(body.Bytes())
		text, err := format.Source(b.Bytes())
		if err != nil {
			return nil, fmt.Errorf("%w\n%s", err, b.String())
		}
		chunks = append(chunks, text)
	}
	return chunks, nil
}

func renderMethod(b *bytes.Buffer, m method) {
	name := exported(m.Name)
	paramsType := name + "Params"
	args := "ctx context.Context"
	send := "nil"
	if len(m.Params) > 0 {
		args += ", params " + paramsType
		send = "params"
	}
	fmt.Fprintf(b, "// %s %s\n// It sends %s (role %s).\n", name, sentence(m.Summary), m.Name, m.Role)
	check := ""
	if len(checks(m)) > 0 {
		check = "\tif err := params.check(); err != nil {\n\t\treturn %s\n\t}\n"
	}
	switch {
	case m.Result == "Empty":
		fmt.Fprintf(b, "func (c *Client) %s(%s) error {\n", name, args)
		if check != "" {
			fmt.Fprintf(b, check, "err")
		}
		fmt.Fprintf(b, "\treturn c.Call(ctx, %q, %s, nil)\n}\n\n", m.Name, send)
	case m.Result == "String" && m.ResultField != "":
		fmt.Fprintf(b, "func (c *Client) %s(%s) (string, error) {\n", name, args)
		if check != "" {
			fmt.Fprintf(b, check, "\"\", err")
		}
		fmt.Fprintf(b, "\tvar result struct {\n\t\tValue *string `json:%q`\n\t}\n", m.ResultField)
		fmt.Fprintf(b, "\tif err := c.Call(ctx, %q, %s, &result); err != nil {\n\t\treturn \"\", err\n\t}\n", m.Name, send)
		if m.ResultFallback != "" {
			fmt.Fprintf(b, "\tif result.Value == nil {\n\t\treturn params.%s, nil\n\t}\n", exported(m.ResultFallback))
		} else {
			b.WriteString("\tif result.Value == nil {\n\t\treturn \"\", nil\n\t}\n")
		}
		b.WriteString("\treturn *result.Value, nil\n}\n\n")
	default:
		result, known := results[m.Result]
		if !known {
			result = "json.RawMessage"
		}
		fmt.Fprintf(b, "func (c *Client) %s(%s) (*%s, error) {\n", name, args, result)
		if check != "" {
			fmt.Fprintf(b, check, "nil, err")
		}
		fmt.Fprintf(b, "\tvar result %s\n\tif err := c.Call(ctx, %q, %s, &result); err != nil {\n\t\treturn nil, err\n\t}\n",
			result, m.Name, send)
		b.WriteString("\treturn &result, nil\n}\n\n")
	}
	if len(m.Params) > 0 {
		renderParams(b, m, paramsType)
	}
}

func renderParams(b *bytes.Buffer, m method, typeName string) {
	fmt.Fprintf(b, "// %s are %s's params.\ntype %s struct {\n", typeName, m.Name, typeName)
	var secrets []string
	for _, p := range m.Params {
		goType, omit := fieldType(p)
		tag := p.Name
		if omit {
			tag += ",omitempty"
		}
		comment := ""
		if len(p.Values) > 0 {
			comment = " // " + strings.Join(p.Values, ", ")
		}
		fmt.Fprintf(b, "\t%s %s `json:%q`%s\n", exported(p.Name), goType, tag, comment)
		if p.Secret {
			secrets = append(secrets, fmt.Sprintf("%q", p.Name))
		}
	}
	b.WriteString("}\n\n")
	if len(secrets) > 0 {
		fmt.Fprintf(b, "// String leaves out the secrets (%s).\n", strings.Join(secrets, ", "))
		fmt.Fprintf(b, "func (p %s) String() string { return redacted(%q, p, %s) }\n\n", typeName, typeName,
			strings.Join(secrets, ", "))
	}
	if rules := checks(m); len(rules) > 0 {
		fmt.Fprintf(b, "func (p %s) check() error {\n", typeName)
		for _, r := range rules {
			b.WriteString(r)
		}
		b.WriteString("\treturn nil\n}\n\n")
	}
}

// fieldType is a param's Go type, and whether it is left out when empty. An optional
// string is left out when "", a flag when false; other optional values are pointers.
func fieldType(p param) (string, bool) {
	base := map[string]string{"string": "string", "bool": "bool", "number": "float64", "integer": "int64",
		"string[]": "[]string", "Credential": "Credential"}[p.Type]
	switch {
	case base == "":
		return "json.RawMessage", p.Optional
	case !p.Optional:
		return base, false
	case p.Type == "string" && p.Nullable:
		return "*NullString", true
	case p.Type == "string", p.Type == "string[]", p.Type == "bool" && p.Flag:
		return base, true
	}
	return "*" + base, true
}

// checks are the Go statements of the method's rules that a client checks before sending.
func checks(m method) []string {
	var out []string
	for _, r := range m.Rules {
		if r.ClientCheck != nil && !*r.ClientCheck {
			continue
		}
		failure := fmt.Sprintf("\t\treturn paramsError(%q, %q)\n\t}\n", m.Name, r.Message)
		switch {
		case len(r.ExactlyOne) > 0:
			out = append(out, fmt.Sprintf("\tif count(%s) != 1 {\n%s", present(m, r.ExactlyOne), failure))
		case len(r.AtMostOne) > 0:
			out = append(out, fmt.Sprintf("\tif count(%s) > 1 {\n%s", present(m, r.AtMostOne), failure))
		case len(r.Requires) == 2:
			out = append(out, fmt.Sprintf("\tif count(%s) == 1 && count(%s) == 0 {\n%s",
				present(m, r.Requires[:1]), present(m, r.Requires[1:]), failure))
		}
	}
	return out
}

// present is the Go expressions saying whether each named param is set, comma separated.
func present(m method, names []string) string {
	var set []string
	for _, name := range names {
		for _, p := range m.Params {
			if p.Name != name {
				continue
			}
			field := "p." + exported(p.Name)
			switch goType, _ := fieldType(p); {
			case goType == "string":
				set = append(set, field+` != ""`)
			case goType == "bool":
				set = append(set, field)
			default:
				set = append(set, field+" != nil")
			}
		}
	}
	return strings.Join(set, ", ")
}

// sentence is a summary as the rest of a doc comment's first sentence: "Signs in…" → "signs
// in…" (an initialism such as "ID" stays).
func sentence(summary string) string {
	if len(summary) > 1 && summary[1] >= 'a' && summary[1] <= 'z' {
		return strings.ToLower(summary[:1]) + summary[1:]
	}
	return summary
}
