# The image the battery jobs run (deploy/k8s, docs/battery.md): a static
# wifodds on a distroless base, nothing else.
#   docker build -t wifodds .
#   docker run --rm -v "$PWD:/work" -w /work wifodds battery ... --shard 1/4 -o part1.json
FROM golang:1.26 AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
RUN CGO_ENABLED=0 go build -trimpath -ldflags="-s -w" -o /out/wifodds ./cmd/wifodds

FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/wifodds /usr/local/bin/wifodds
ENTRYPOINT ["/usr/local/bin/wifodds"]
