module github.com/sesame/sesame/clients/go

go 1.19
